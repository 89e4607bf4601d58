//! The balance scheduler ([`crate::balance`]): once the client asked for code lenses, every edit
//! wakes it; it waits until no edit arrived for [`QUIET`], has the state thread make a job of the
//! up-to-date state, and runs it there in turns, each queued behind the other jobs and given up
//! as soon as one more is queued, until it is done or a newer edit makes it stale. A second task
//! asks the client for the lenses again whenever figures were added.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tower_lsp_server::Client;

use crate::balance::{Turn, QUIET};
use crate::state_thread::{lock, on_state_thread, panic_message, Shared};

/// Makes a job whenever the typing stopped after an edit (see the module docs).
pub(crate) async fn schedule_loop(shared: Arc<Shared>) {
    loop {
        shared.balance_wake.notified().await;
        if !shared.lenses_asked.load(Ordering::SeqCst) || !shared.initialized.load(Ordering::SeqCst) {
            continue;
        }
        let mut edits = shared.balance.edits.load(Ordering::SeqCst);
        loop {
            tokio::time::sleep(QUIET).await;
            let now = shared.balance.edits.load(Ordering::SeqCst);
            if now == edits {
                break;
            }
            edits = now;
        }
        if shared.balance_planned.swap(edits, Ordering::SeqCst) == edits {
            continue;
        }
        let made = on_state_thread(&shared, move |s| {
            s.run("balance", move |state| {
                let revision = state.revision;
                state.balance_job(edits, &|| s.received() > revision)
            })
        })
        .await;
        let job = match made {
            Some(Ok(Some(job))) => Arc::new(job),
            // Given up for a newer edit (or nothing to show): made again after the next quiet.
            _ => {
                shared.balance_planned.store(u64::MAX, Ordering::SeqCst);
                continue;
            }
        };
        // Turns on the state thread, each behind the jobs queued before it: a request or an
        // analysis waits at most for the fights in hand (64) or the file being lowered.
        loop {
            let j = job.clone();
            let turn = on_state_thread(&shared, move |s| {
                let turn = catch_unwind(AssertUnwindSafe(|| s.balance.turn(&j, &|| s.queued_jobs.load(Ordering::SeqCst) > 0)));
                turn.unwrap_or_else(|p| {
                    log!("rustkeep-lsp: the balance figures failed: {}", panic_message(&*p));
                    s.balance.reset();
                    Turn::Done
                })
            })
            .await;
            match turn {
                Some(Turn::Yielded) => tokio::task::yield_now().await,
                Some(Turn::Done | Turn::Stale) | None => break,
            }
        }
    }
}

/// Asks the client for the code lenses again whenever figures were added (several at once: once).
pub(crate) async fn refresh_loop(shared: Arc<Shared>, client: Client, supported: Arc<AtomicBool>) {
    let Some(mut rx) = lock(&shared.balance_ready).take() else { return };
    while rx.recv().await.is_some() {
        while rx.try_recv().is_ok() {}
        // Not waited for: a client that never answers must not hold the next refresh up.
        if supported.load(Ordering::SeqCst) {
            let client = client.clone();
            tokio::spawn(async move {
                let _ = client.code_lens_refresh().await;
            });
        }
    }
}

/// A code-lens request: the first one starts the figures; later ones wake the scheduler only
/// when edits arrived since its last job.
pub(crate) fn lenses_asked(shared: &Shared) {
    let first = !shared.lenses_asked.swap(true, Ordering::SeqCst);
    if first || shared.balance_planned.load(Ordering::SeqCst) != shared.balance.edits.load(Ordering::SeqCst) {
        shared.balance_wake.notify_one();
    }
}
