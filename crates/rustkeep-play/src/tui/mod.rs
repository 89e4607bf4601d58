//! The full-screen game (ratatui on crossterm). [`App`] holds the state of the screen and turns
//! keys into [`crate::command::Command`]s; [`draw`] paints it; this module owns the terminal: raw
//! mode and the alternate screen on the way in, and always the way back out — after a normal
//! quit, an error, a panic, or SIGTERM / SIGHUP.

mod app;
mod browse;
mod colour;
#[cfg(test)]
mod defect_tests;
mod draw;
#[cfg(test)]
mod key_tests;
pub mod keys;
mod paint;
mod playback;
#[cfg(test)]
mod player_tests;
#[cfg(test)]
mod screen_tests;
mod screens;
mod start;
#[cfg(test)]
pub(crate) mod testing;
mod watch;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyEventKind};
use ratatui::crossterm::terminal::{self, BeginSynchronizedUpdate, EndSynchronizedUpdate};
use ratatui::crossterm::{execute, queue};
use rustkeep_engine::game::World;

pub use app::{App, Flow};
#[cfg(test)]
pub use app::{Overlay, Side, View};
pub use draw::draw;

use crate::session::Session;
use crate::{PlayOptions, Start};
use rustkeep_engine::save;

/// Whether colours are wanted: not with `--no-color`, not when `NO_COLOR` is set and not empty.
pub fn colour_wanted(no_color_flag: bool) -> bool {
    !no_color_flag && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A seed from the clock, for a new game without `--seed`.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    // Keep it short enough to read aloud and type again.
    (nanos as u64 ^ u64::from(std::process::id())) % 1_000_000
}

/// The app the options ask for: a loaded save, a new game with its options, or the start
/// screen where the player chooses them.
pub fn app_for(w: World, start: &Start, colour: bool) -> Result<App, String> {
    let (seed, options, floor, record) = match start {
        Start::Load(path) => {
            let (s, warnings) = Session::from_save(w, path)?;
            let mut app = App::playing(s, colour);
            for x in warnings {
                app.note(format!("warning: {x}"));
            }
            return Ok(app);
        }
        Start::New { seed, options, floor, record } => (seed, options, floor, record),
    };
    let seed = seed.unwrap_or_else(fresh_seed);
    let mut app = if options.is_empty() {
        App::start_screen(w, seed, floor.clone(), colour)
    } else {
        App::playing(Session::new_game(w, seed, options.clone(), floor.as_deref())?, colour)
    };
    app.record_to(record.clone(), floor.clone())?;
    Ok(app)
}

/// Whether the terminal is set up for the game (raw mode, the alternate screen) and not restored
/// yet.
static SET_UP: AtomicBool = AtomicBool::new(false);

/// Restores the terminal: raw mode off, the main screen back, the cursor shown. Only the first
/// call after [`open_terminal`] does it: leaving the alternate screen again would move the cursor
/// back to where the game started, over what was printed since (the summary of the run).
fn restore() {
    if !SET_UP.swap(false, Ordering::SeqCst) {
        return;
    }
    // Each step on its own, whatever the others did, and silently: on a terminal that hung up
    // every one fails, and a message about it would have nowhere to go (printing to a closed
    // terminal panics, which is why ratatui's own restore, which prints, is not used).
    let mut out = std::io::stdout();
    // A frame cut short (by a panic) must not leave the terminal waiting for its end.
    let _ = execute!(out, EndSynchronizedUpdate);
    let _ = terminal::disable_raw_mode();
    let _ = execute!(out, terminal::LeaveAlternateScreen, ratatui::crossterm::cursor::Show);
}

/// The full-screen terminal. Not `ratatui::try_init`, whose panic hook prints when it cannot
/// restore the terminal (see [`restore`]; the game sets its own hook).
fn open_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    SET_UP.store(true, Ordering::SeqCst);
    terminal::enable_raw_mode()?;
    execute!(std::io::stdout(), terminal::EnterAlternateScreen)?;
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout()))
}

/// Puts the terminal back however the game ends: dropped on return, on an error and while a
/// panic unwinds.
struct Restorer;

impl Drop for Restorer {
    fn drop(&mut self) {
        restore();
    }
}

/// Plays the full-screen game on the terminal until the player quits or a signal ends it.
pub fn run(w: World, o: &PlayOptions) -> Result<u8, String> {
    let mut app = app_for(w, &o.start, colour_wanted(o.no_color))?;
    app.dump = Some(o.dump_to());
    run_app(app, App::close)
}

/// What `--replay FILE --watch` is asked.
pub struct WatchOptions<'a> {
    pub recording: &'a crate::record::Recording,
    /// The recording's name in messages.
    pub shown: &'a str,
    pub force: bool,
    /// Inputs per second to start at.
    pub speed: u32,
    pub no_color: bool,
    /// Where to write the final state as a save.
    pub save: Option<&'a std::path::Path>,
}

/// Plays a recording back on the terminal until the viewer quits; prints what the headless replay
/// prints of the state the viewer left it in, and saves that state when asked.
pub fn watch(w: World, o: &WatchOptions) -> Result<u8, String> {
    let app = App::watching(w, o.recording, o.shown, o.force, o.speed, colour_wanted(o.no_color))?;
    let save = o.save.map(std::path::Path::to_path_buf);
    run_app(app, move |app| {
        let r = app.replay.take()?;
        let s = app.session()?;
        let mut text = String::new();
        for x in &r.warnings {
            text.push_str(&format!("warning: {x}\n"));
        }
        if let Some(e) = &r.failed {
            text.push_str(&format!("error: {e}\n"));
        }
        text.push_str(&format!("replayed {} of {} inputs of {} (seed {})\n", r.next, r.inputs.len(), r.shown, s.g.seed()));
        if let Some(p) = &save {
            if let Err(e) = save::write(p, &s.g) {
                text.push_str(&format!("error: {e}\n"));
            }
        }
        text.push_str(&crate::summary(s));
        Some(text)
    })
}

/// Runs `app` on the terminal; `closing` gives the text printed once the terminal is back.
fn run_app(mut app: App, closing: impl FnOnce(&mut App) -> Option<String>) -> Result<u8, String> {
    app.depth = colour::Depth::detect();
    // A terminating signal stores its number in the flag (0: none); the loop sees it within one
    // poll and leaves normally, so the terminal is restored and the recording flushed.
    let stop = Arc::new(AtomicUsize::new(0));
    #[cfg(unix)]
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP, signal_hook::consts::SIGINT] {
        signal_hook::flag::register_usize(signal, stop.clone(), signal as usize).map_err(|e| format!("cannot watch for signals: {e}"))?;
    }
    // The loop may never come back to look at the flag: once the terminal hangs up, reading it
    // gives end-of-file forever and crossterm's read keeps trying. So a watcher gives the loop
    // half a second after a signal, then restores what it can and ends the process itself (every
    // input of a recording is already on disk). A terminal that hangs up while the signal goes
    // elsewhere (to a shell that leads its session, as when a script starts the game) counts as
    // the signal: the watcher notices that it stopped answering.
    #[cfg(unix)]
    let watch_terminal = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let note_hang_up = move |stop: &AtomicUsize| {
        #[cfg(unix)]
        if watch_terminal && !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            let _ = stop.compare_exchange(0, signal_hook::consts::SIGHUP as usize, Ordering::Relaxed, Ordering::Relaxed);
        }
        #[cfg(not(unix))]
        let _ = stop;
    };
    let finished = Arc::new(std::sync::atomic::AtomicBool::new(false));
    {
        let (stop, finished) = (stop.clone(), finished.clone());
        std::thread::spawn(move || {
            let mut since: Option<std::time::Instant> = None;
            loop {
                std::thread::sleep(Duration::from_millis(50));
                if finished.load(Ordering::Relaxed) {
                    return;
                }
                note_hang_up(&stop);
                let signal = stop.load(Ordering::Relaxed);
                if signal == 0 {
                    continue;
                }
                let at = *since.get_or_insert_with(std::time::Instant::now);
                if at.elapsed() > Duration::from_millis(500) {
                    restore();
                    std::process::exit(i32::try_from(128 + signal).unwrap_or(255));
                }
            }
        });
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    let mut terminal = open_terminal().map_err(|e| format!("cannot open the terminal: {e}"))?;
    let _restorer = Restorer;
    let result = (|| -> Result<(), String> {
        // Nothing on screen changes but by an event (or a replay's next input): frames are drawn
        // after one, not on a clock.
        let mut stale = true;
        let mut last_input = std::time::Instant::now();
        loop {
            if stale {
                // Each frame is one synchronized update: a terminal that knows the mode shows it
                // whole (no tearing), the others ignore the two sequences.
                queue!(terminal.backend_mut(), BeginSynchronizedUpdate).map_err(|e| format!("cannot draw: {e}"))?;
                terminal.draw(|f| draw(f, &mut app)).map_err(|e| format!("cannot draw: {e}"))?;
                execute!(terminal.backend_mut(), EndSynchronizedUpdate).map_err(|e| format!("cannot draw: {e}"))?;
                stale = false;
            }
            if stop.load(Ordering::Relaxed) != 0 {
                return Ok(());
            }
            // The timeout bounds how late a signal is noticed, and times a replay's inputs.
            let due = app.replay.as_ref().filter(|r| !r.paused && !r.finished()).map(|r| r.interval());
            let wait = due.map_or(Duration::from_millis(100), |d| d.saturating_sub(last_input.elapsed()).min(Duration::from_millis(100)));
            if !event::poll(wait).map_err(|e| format!("cannot read the terminal: {e}"))? {
                if due.is_some_and(|d| last_input.elapsed() >= d) {
                    app.replay_step();
                    last_input = std::time::Instant::now();
                    stale = true;
                }
                continue;
            }
            stale = true;
            let flow = match event::read().map_err(|e| format!("cannot read the terminal: {e}"))? {
                Event::Key(k) if k.kind != KeyEventKind::Release => app.key(k),
                // A resize (or focus, paste, mouse) is drawn by the next pass of the loop.
                _ => Flow::Continue,
            };
            if flow == Flow::Quit {
                return Ok(());
            }
        }
    })();
    finished.store(true, Ordering::Relaxed);
    // Dropped, ratatui's terminal shows the cursor and prints if it cannot (a terminal that hung
    // up): it is shown here, and one that cannot show it is let go undropped (it holds nothing but
    // memory, and the process ends).
    match terminal.show_cursor() {
        Ok(()) => drop(terminal),
        Err(_) => std::mem::forget(terminal),
    }
    restore();
    let closing = closing(&mut app);
    // A failure to draw or read on a terminal that is gone is a hang-up, whether or not its
    // signal arrived.
    if result.is_err() {
        note_hang_up(&stop);
    }
    // After a signal, a failure to draw or read is the signal's doing (a terminal that hangs up
    // fails every write from then on): the game ended by the signal.
    if stop.load(Ordering::Relaxed) == 0 {
        result?;
    }
    if let Some(text) = closing {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
    }
    // Ended by a signal: the shell's convention, 128 + its number (143 for SIGTERM).
    Ok(match stop.load(Ordering::Relaxed) {
        0 => 0,
        signal => u8::try_from(128 + signal).unwrap_or(u8::MAX),
    })
}
