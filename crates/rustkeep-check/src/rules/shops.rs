//! `shop-never-opened`: a shop opens only when an `open_shop` action names it, so one that none
//! names is never seen.

use rustkeep_data::diag::Code;
use rustkeep_data::vocab::{field, Registry};

use super::absent::Sources;

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole =
    super::Whole { name: "shop-never-opened", absence: true, run: |project, db, out| SOURCES.run(project, db, out), view: |ff| SOURCES.view(ff) };

/// Warns on every shop in force that no `open_shop` action names, but those of content packs.
const SOURCES: Sources = Sources::actions_only(Registry::Shops, field::SHOP, Code::ShopNeverOpened, |id: &str| {
    format!(
        "no `open_shop` action names `{id}`, so this shop never opens: open it with `{{ action = \"open_shop\", shop = \"{id}\" }}`, e.g. in the `on_talk` of the NPC who keeps it"
    )
});
