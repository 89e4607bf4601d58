//! The one task that sends `textDocument/publishDiagnostics`: woken by every change received, it
//! has the newest revision analysed on the state thread and offers every batch it holds to its
//! [`Publisher`] (the order of publication is `publish.rs`'s).

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc::UnboundedReceiver;
use tower_lsp_server::Client;

use crate::publish::{Publisher, ToPublisher};
use crate::state_thread::{ms, on_state_thread, Shared};

/// The one task that sends `textDocument/publishDiagnostics` (see the module docs).
pub(crate) async fn publish_loop(shared: Arc<Shared>, client: Client, mut rx: UnboundedReceiver<ToPublisher>) {
    let mut publisher = Publisher::new(shared.hooks.unguarded);
    while let Some(first) = rx.recv().await {
        let mut wake = false;
        let mut batches = Vec::new();
        let mut take = |m: ToPublisher| match m {
            ToPublisher::Wake => wake = true,
            ToPublisher::Batch(b) => batches.push(b),
        };
        take(first);
        while let Ok(m) = rx.try_recv() {
            take(m);
        }
        let start = Instant::now();
        let mut phases = None;
        if wake {
            let s = shared.clone();
            let last = publisher.last_revision();
            match on_state_thread(&s, move |s| s.analyze_for_publish(last)).await {
                Some(Some((b, p))) => {
                    batches.push(b);
                    phases = Some(p);
                }
                Some(None) => {}
                None => log!("rustkeep-lsp: the state thread is gone"),
            }
        }
        let publishing = Instant::now();
        let mut sent = 0;
        for batch in batches {
            // A change newer than this batch was received: its own wake-up brings a newer batch.
            if !shared.hooks.unguarded && batch.revision < shared.received() {
                continue;
            }
            let revision = batch.revision;
            for (u, diags, version) in publisher.accept(batch) {
                client.publish_diagnostics(u, diags, version).await;
                sent += 1;
            }
            if let Some(p) = phases.as_mut().filter(|_| shared.profile.is_some_and(|t| start.elapsed() > t)) {
                p.publish += publishing.elapsed();
                log!("rustkeep-lsp: analysis of revision {revision} took {:.1} ms ({p}; {sent} lists sent)", ms(start.elapsed()));
            }
        }
    }
}
