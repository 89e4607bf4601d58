//! The full-screen game (ratatui on crossterm). [`App`] holds the state of the screen and turns
//! keys into [`super::command::Command`]s; [`draw`] paints it; this module owns the terminal: raw
//! mode and the alternate screen on the way in, and always the way back out — after a normal
//! quit, an error, a panic, or SIGTERM / SIGHUP.

mod app;
mod draw;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyEventKind};
use rustkeep_engine::game::World;

pub use app::{App, Flow};
pub use draw::draw;

use super::session::Session;
use super::Args;

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

/// The app a command line asks for: a loaded save, a new game with its options, or the start
/// screen where the player chooses them.
pub fn app_for(w: World, args: &Args, colour: bool) -> Result<App, String> {
    if let Some(path) = &args.load {
        let (s, warnings) = Session::from_save(w, path)?;
        let mut app = App::playing(s, colour);
        for x in warnings {
            app.note(format!("warning: {x}"));
        }
        return Ok(app);
    }
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut app = if args.options.is_empty() {
        App::start_screen(w, seed, args.floor.clone(), colour)
    } else {
        App::playing(Session::new_game(w, seed, args.options.clone(), args.floor.as_deref())?, colour)
    };
    app.record_to(args.record.clone(), args.floor.clone())?;
    Ok(app)
}

/// Restores the terminal: raw mode off, the main screen back, the cursor shown. Safe to call
/// more than once and when nothing was set up.
fn restore() {
    ratatui::restore();
    let _ = ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::cursor::Show);
}

/// Puts the terminal back however the game ends: dropped on return, on an error and while a
/// panic unwinds.
struct Restorer;

impl Drop for Restorer {
    fn drop(&mut self) {
        restore();
    }
}

pub fn run(w: World, args: &Args) -> Result<u8, String> {
    let mut app = app_for(w, args, colour_wanted(args.common.no_color))?;
    // A terminating signal sets the flag; the loop sees it within one poll and leaves normally,
    // so the terminal is restored and the recording flushed.
    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, stop.clone()).map_err(|e| format!("cannot watch for signals: {e}"))?;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    let mut terminal = ratatui::try_init().map_err(|e| format!("cannot open the terminal: {e}"))?;
    let _restorer = Restorer;
    let result = (|| -> Result<(), String> {
        loop {
            terminal.draw(|f| draw(f, &mut app)).map_err(|e| format!("cannot draw: {e}"))?;
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            if !event::poll(Duration::from_millis(100)).map_err(|e| format!("cannot read the terminal: {e}"))? {
                continue;
            }
            match event::read().map_err(|e| format!("cannot read the terminal: {e}"))? {
                // Every key but a release goes to the game; only a quit ends the loop.
                Event::Key(k) if k.kind != KeyEventKind::Release && app.key(k) == Flow::Quit => return Ok(()),
                // A resize is drawn by the next pass of the loop.
                _ => {}
            }
        }
    })();
    drop(terminal);
    restore();
    let closing = app.close();
    result?;
    if let Some(text) = closing {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
    }
    Ok(if stop.load(Ordering::Relaxed) { 130 } else { 0 })
}
