//! The full-screen game's latency: a key press to the end of the next frame drawn, in the largest
//! room of the bundled core with 20 enemies, on the release binary driven through a
//! pseudo-terminal as a player's terminal would drive it.
//!
//! The game wraps every frame in the synchronized-update sequences (`CSI ?2026h` … `CSI ?2026l`),
//! so the end of a frame is exact: the time is taken from writing the key to reading the closing
//! sequence of the first frame that draws something (a frame that changes nothing is the two
//! sequences alone and is not counted). The key is `.` (wait): a whole turn, in which every enemy
//! acts, then the frame.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};
use serde_json::json;

use crate::ExtraFigure;

/// The largest room of the bundled core (13 × 7 tiles) and the enemies in it.
const ROOM: &str = "core:library";
const ENEMIES: usize = 20;
/// Key presses timed per terminal size (after a few untimed ones).
const PRESSES: usize = 250;
const WARM_UP: usize = 10;
const BEGIN: &[u8] = b"\x1b[?2026h";
const END: &[u8] = b"\x1b[?2026l";

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The game in a pseudo-terminal, and its output as it arrives.
struct Game {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    output: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    parser: vt100::Parser,
    _master: Box<dyn portable_pty::MasterPty + Send>,
    /// The game's empty current folder, removed with the game.
    _cwd: tempfile::TempDir,
}

impl Game {
    fn start(exe: &Path, rows: u16, cols: u16) -> Result<Game, String> {
        let pair = native_pty_system().openpty(PtySize { rows, cols, pixel_width: 0, pixel_height: 0 }).map_err(|e| format!("no pseudo-terminal: {e}"))?;
        let mut cmd = CommandBuilder::new(exe);
        cmd.args(["play", "--seed", "1", "--option", "core:warrior"]);
        // The bundled core alone: without `--mods`, play loads the mods of its folder.
        let empty = tempfile::Builder::new().prefix("rustkeep-bench-play-").tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
        cmd.cwd(empty.path());
        cmd.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(cmd).map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().map_err(|e| e.to_string())?;
        let writer = pair.master.take_writer().map_err(|e| e.to_string())?;
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Ok(Game { child, writer, output, pending: Vec::new(), parser: vt100::Parser::new(rows, cols, 0), _master: pair.master, _cwd: empty })
    }

    fn keys(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.writer.write_all(bytes).and_then(|()| self.writer.flush()).map_err(|e| format!("the game went away: {e}"))
    }

    /// Reads until the end of the next frame that draws something; returns when it was read.
    fn next_frame(&mut self) -> Result<Instant, String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            while let Some(end) = find(&self.pending, END) {
                let frame: Vec<u8> = self.pending.drain(..end + END.len()).collect();
                self.parser.process(&frame);
                let start = find(&frame, BEGIN).map_or(0, |b| b + BEGIN.len());
                if end > start {
                    return Ok(Instant::now());
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = self.output.recv_timeout(left).map_err(|_| format!("no frame within 30 s; the screen:\n{}", self.parser.screen().contents()))?;
            self.pending.extend_from_slice(&chunk);
        }
    }

    /// Types a line on the game's `:` command line and waits for its frame.
    fn command(&mut self, line: &str) -> Result<(), String> {
        self.keys(format!(":{line}\r").as_bytes())?;
        // A frame per key typed, then the one of the command; wait until the line is gone.
        for _ in 0..200 {
            self.next_frame()?;
            let screen = self.parser.screen().contents();
            if !screen.lines().last().unwrap_or("").starts_with(':') {
                return Ok(());
            }
        }
        Err(format!("`:{line}` did not run"))
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The enemies drawn on the map: the lower-case letters inside the map's box.
fn enemies_on_map(screen: &str) -> usize {
    let lines: Vec<&str> = screen.lines().collect();
    let Some(top) = lines.iter().position(|l| l.contains("┌ Map")) else { return 0 };
    lines[top + 1..]
        .iter()
        .take_while(|l| !l.starts_with('└'))
        .map(|l| l.split('│').nth(1).unwrap_or("").chars().filter(char::is_ascii_lowercase).count())
        .sum()
}

/// The turn the title line shows (`… · turn N · seed …`).
fn turn(screen: &str) -> Option<usize> {
    screen.lines().next()?.split(" · ").find_map(|part| part.strip_prefix("turn ")).and_then(|n| n.trim().parse().ok())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The game at `rows` × `cols` in the library with the enemies to measure with, and how many
/// the map shows.
fn in_the_library(exe: &Path, rows: u16, cols: u16) -> Result<(Game, usize), String> {
    let mut g = Game::start(exe, rows, cols)?;
    g.next_frame()?;
    g.command(&format!("enter {ROOM}"))?;
    // The room brings its own enemies (the `e` of its grid); spawn the rest.
    let screen = g.parser.screen().contents();
    if !screen.contains("Library") {
        return Err(format!("not in {ROOM}:\n{screen}"));
    }
    g.command(&format!("spawn core:rat {}", ENEMIES.saturating_sub(enemies_on_map(&screen)).max(1)))?;
    let enemies = enemies_on_map(&g.parser.screen().contents());
    Ok((g, enemies))
}

/// The times (ms) of `PRESSES` key presses of `.` to their frames, after a few untimed ones; each
/// press a turn.
fn time_presses(g: &mut Game) -> Result<Vec<f64>, String> {
    let first_turn = turn(&g.parser.screen().contents()).ok_or("no turn in the title")?;
    let mut times = Vec::with_capacity(PRESSES);
    for i in 0..WARM_UP + PRESSES {
        // Let the game settle into its wait for keys, as between a player's key presses.
        std::thread::sleep(Duration::from_millis(5));
        while let Ok(chunk) = g.output.try_recv() {
            g.pending.extend_from_slice(&chunk);
        }
        while let Some(end) = find(&g.pending, END) {
            let frame: Vec<u8> = g.pending.drain(..end + END.len()).collect();
            g.parser.process(&frame);
        }
        let t = Instant::now();
        g.keys(b".")?;
        let done = g.next_frame()?;
        if i >= WARM_UP {
            times.push((done - t).as_secs_f64() * 1e3);
        }
    }
    let screen = g.parser.screen().contents();
    if screen.contains("The run is over") {
        return Err(format!("the player died during the measurement:\n{screen}"));
    }
    // Every key press was a turn, and every frame timed was its frame.
    if turn(&screen) != Some(first_turn + WARM_UP + PRESSES) {
        return Err(format!("{} key presses did not make as many turns:\n{screen}", WARM_UP + PRESSES));
    }
    times.sort_by(|a, b| a.total_cmp(b));
    Ok(times)
}

/// Median and p95 (ms) of a key press to the next frame, at `rows` × `cols`.
fn measure(exe: &Path, rows: u16, cols: u16) -> Result<(f64, f64, usize), String> {
    let (mut g, enemies) = in_the_library(exe, rows, cols)?;
    let times = time_presses(&mut g)?;
    Ok((percentile(&times, 0.5), percentile(&times, 0.95), enemies))
}

/// The resident memory of the game's process, in KiB (Linux: `/proc/PID/status`).
fn resident_kib(g: &Game) -> Result<u64, String> {
    let pid = g.child.process_id().ok_or("no process id")?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| format!("cannot read the game's memory: {e}"))?;
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).ok_or_else(|| "no VmRSS".into())
}

/// `n` turns of `.`, each waited for.
fn play_turns(g: &mut Game, n: usize) -> Result<(), String> {
    for _ in 0..n {
        g.keys(b".")?;
        g.next_frame()?;
    }
    Ok(())
}

/// Turns the trace history keeps (`rustkeep_play::session::HISTORY_TURNS`).
const HISTORY: usize = 2_000;

/// The trace history at 120 × 40: a key press to its frame with the trace pane open after 2,000
/// turns of 20 enemies, and the memory the history takes: the game's resident memory grows over
/// the first 2,000 turns (the history fills) and stays flat over the next ones (it is full:
/// the oldest turn goes as each new one comes).
fn measure_history(exe: &Path) -> Result<(f64, f64, u64, u64), String> {
    let (mut g, _) = in_the_library(exe, 40, 120)?;
    let before = resident_kib(&g)?;
    play_turns(&mut g, HISTORY)?;
    let full = resident_kib(&g)?;
    g.keys(b"t")?;
    g.next_frame()?;
    let times = time_presses(&mut g)?;
    play_turns(&mut g, HISTORY - PRESSES - WARM_UP)?;
    let after = resident_kib(&g)?;
    let screen = g.parser.screen().contents();
    if !screen.contains("┌ Trace") {
        return Err(format!("the trace pane is not open:\n{screen}"));
    }
    Ok((percentile(&times, 0.5), percentile(&times, 0.95), full.saturating_sub(before), after.saturating_sub(full)))
}

/// The figures of the full-screen game, at 80 × 24 and 120 × 40.
pub fn play_figures(exe: &Path) -> Vec<ExtraFigure> {
    let mut out = Vec::new();
    for (rows, cols) in [(24u16, 80u16), (40, 120)] {
        match measure(exe, rows, cols) {
            Ok((p50, p95, enemies)) => out.push(ExtraFigure {
                figure: format!("play: key press → frame drawn with field of view, {ROOM} with {enemies} enemies in sight, {cols} × {rows} (p50 / p95)"),
                value: format!("{p50:.1} ms / {p95:.1} ms"),
                target: "≤ 16 ms".into(),
                ok: Some(p95 <= 16.0),
                json: json!({ "p50_ms": p50, "p95_ms": p95, "presses": PRESSES, "enemies": enemies, "rows": rows, "cols": cols }),
            }),
            Err(e) => eprintln!("play at {cols} × {rows}: {e}"),
        }
    }
    match measure_history(exe) {
        Ok((p50, p95, filling, full)) => {
            out.push(ExtraFigure {
                figure: format!("play: key press → frame, trace pane open after {HISTORY} turns of {ENEMIES} enemies, 120 × 40 (p50 / p95)"),
                value: format!("{p50:.1} ms / {p95:.1} ms"),
                target: "≤ 16 ms".into(),
                ok: Some(p95 <= 16.0),
                json: json!({ "p50_ms": p50, "p95_ms": p95, "turns": HISTORY }),
            });
            let mib = |k: u64| k as f64 / 1024.0;
            out.push(ExtraFigure {
                figure: format!("play: memory of the trace history, growth over turns 1–{HISTORY} / over the next {HISTORY} (resident, {ENEMIES} enemies)"),
                value: format!("{:.1} MiB / {:.1} MiB", mib(filling), mib(full)),
                target: "bounded: the second ≤ ¼ of the first".into(),
                ok: Some(full * 4 <= filling.max(1)),
                json: json!({ "filling_kib": filling, "full_kib": full, "turns": HISTORY }),
            });
        }
        Err(e) => eprintln!("play: the trace history: {e}"),
    }
    out
}
