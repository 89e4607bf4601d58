//! The rustkeep language server.
