//! The full-screen game end to end: the real binary in a pseudo-terminal (`portable-pty`), its
//! output parsed by a terminal emulator (`vt100`) into the screen a player sees. Start, move,
//! open the help and close it, quit with confirmation: the screen shows the map and the health
//! bar, and afterwards the terminal is back as it was (main screen, cursor shown) and the exit
//! code is 0. A SIGTERM restores the terminal too, and a terminal that hangs up ends the game.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use rustkeep_testutil::TempDir;

const ROWS: u16 = 24;
const COLS: u16 = 80;
/// How long the game may take to show what a test waits for (a loaded machine builds and runs
/// several test binaries at once).
const PATIENCE: Duration = Duration::from_secs(60);

/// The game running in a pseudo-terminal, with the emulator that reads its output.
struct Game {
    child: Box<dyn Child + Send + Sync>,
    /// The terminal's three handles (writer, reader, master): the child's terminal hangs up when
    /// the last of them is closed ([`Game::hang_up`]).
    writer: Option<Box<dyn Write + Send>>,
    output: Receiver<Vec<u8>>,
    parser: vt100::Parser,
    /// Asks the reader to close its handle after its next read.
    stop_reading: Arc<AtomicBool>,
    _master: Option<Box<dyn MasterPty + Send>>,
    /// Whether the child's side of the terminal was closed (it exited).
    closed: bool,
    /// Every byte the game wrote, in order.
    raw: Vec<u8>,
    /// The empty folder the game runs in, removed when the game is dropped.
    _cwd: TempDir,
}

impl Game {
    fn start(args: &[&str]) -> Game {
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_rustkeep"));
        cmd.arg("play");
        cmd.args(args);
        Game::start_command(cmd)
    }

    /// Runs `cmd` in a fresh terminal, in an empty folder: without `--mods`, `play` loads the
    /// mods it finds from its folder (the repository root would bring every example, the broken
    /// ones too), so here only the core.
    fn start_command(mut cmd: CommandBuilder) -> Game {
        let pair = native_pty_system().openpty(PtySize { rows: ROWS, cols: COLS, pixel_width: 0, pixel_height: 0 }).expect("a pseudo-terminal");
        let cwd = TempDir::new("play-tui");
        cmd.cwd(&cwd.0);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        let child = pair.slave.spawn_command(cmd).expect("rustkeep starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let writer = pair.master.take_writer().expect("a writer");
        let (tx, output) = channel();
        let stop_reading = Arc::new(AtomicBool::new(false));
        let stop = stop_reading.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            // Linux answers EIO once the child's side is closed: the end, like EOF.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() || stop.load(Ordering::Relaxed) {
                    break;
                }
            }
        });
        Game {
            child,
            writer: Some(writer),
            output,
            parser: vt100::Parser::new(ROWS, COLS, 0),
            stop_reading,
            _master: Some(pair.master),
            closed: false,
            raw: Vec::new(),
            _cwd: cwd,
        }
    }

    /// Feeds the output that arrived within `wait` to the emulator.
    fn pump(&mut self, wait: Duration) {
        match self.output.recv_timeout(wait) {
            Ok(bytes) => {
                self.parser.process(&bytes);
                self.raw.extend_from_slice(&bytes);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                self.closed = true;
                return;
            }
        }
        while let Ok(bytes) = self.output.try_recv() {
            self.parser.process(&bytes);
            self.raw.extend_from_slice(&bytes);
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Waits until the screen's text satisfies `what`; panics with the screen after [`PATIENCE`].
    fn wait_for(&mut self, label: &str, what: impl Fn(&str) -> bool) {
        self.wait_for_state(label, |s| what(&s.contents()));
    }

    /// Waits until the emulator's screen (its text and modes) satisfies `what`.
    fn wait_for_state(&mut self, label: &str, what: impl Fn(&vt100::Screen) -> bool) {
        let start = Instant::now();
        while !what(self.parser.screen()) {
            assert!(start.elapsed() < PATIENCE && !self.closed, "waited for {label}; the screen:\n{}", self.screen());
            self.pump(Duration::from_millis(50));
        }
    }

    fn keys(&mut self, bytes: &[u8]) {
        let writer = self.writer.as_mut().expect("the terminal is still there");
        writer.write_all(bytes).and_then(|()| writer.flush()).expect("keys written");
    }

    /// Hangs up the child's terminal, as when the terminal window is closed or an SSH connection
    /// drops: every handle of the terminal's side is closed. The reader closes its own after the
    /// output of one more key.
    fn hang_up(&mut self) {
        self.stop_reading.store(true, Ordering::Relaxed);
        self.keys(b"?");
        let start = Instant::now();
        while !self.closed {
            assert!(start.elapsed() < PATIENCE, "the reader did not stop");
            self.pump(Duration::from_millis(50));
        }
        self.writer = None;
        self._master = None;
    }

    /// Waits for the child to exit, reading its last output; its exit code.
    fn exit_code(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("the child's status") {
                // What it wrote on the way out (restoring the terminal) is read to the end.
                let drain = Instant::now();
                while !self.closed && drain.elapsed() < Duration::from_secs(5) {
                    self.pump(Duration::from_millis(50));
                }
                return status.exit_code();
            }
            assert!(start.elapsed() < PATIENCE, "rustkeep did not exit; the screen:\n{}", self.screen());
            self.pump(Duration::from_millis(50));
        }
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The turn the title line shows (`… · turn N · seed …`).
fn turn(screen: &str) -> Option<usize> {
    let title = screen.lines().next()?;
    title.split(" · ").find_map(|part| part.strip_prefix("turn ")).and_then(|n| n.trim().parse().ok())
}

/// The game is on screen: the title with the seed, the map with walls and the player, the
/// health bar.
fn playing(s: &str) -> bool {
    s.contains("seed 5") && s.contains('@') && s.contains("##") && s.contains("HP █") && s.contains("30/30")
}

#[test]
fn start_move_help_and_quit_restore_the_terminal() {
    let mut g = Game::start(&["--seed", "5", "--option", "core:warrior"]);
    g.wait_for("the map and the health bar", playing);
    // The cursor is hidden once the frame is out, on the alternate screen.
    g.wait_for_state("a hidden cursor on the alternate screen", |s| s.alternate_screen() && s.hide_cursor());
    let first = turn(&g.screen()).expect("a turn in the title");

    // A move or a wait is a turn: the title counts it. (The warrior starts on a room's `@`,
    // where a wall may be in any one direction, so both are tried.)
    g.keys(b".");
    g.wait_for("the next turn", |s| turn(s) == Some(first + 1));
    g.keys(b"j");
    g.keys(b"k");
    g.wait_for("a move", |s| turn(s) == Some(first + 2) || turn(s) == Some(first + 3));

    // `?` opens the help with every key; Esc closes it.
    g.keys(b"?");
    g.wait_for("the help", |s| s.contains("Help") && s.contains("command line"));
    // It scrolls: PgDn shows the rest of the key map.
    g.keys(b"\x1b[6~");
    g.wait_for("the help's next page", |s| s.contains("quit (asks first)"));
    g.keys(b"\x1b");
    g.wait_for("the map again", |s| !s.contains("quit (asks first)") && playing(s));

    // `q` asks; `y` quits.
    g.keys(b"q");
    g.wait_for("the question", |s| s.contains("Quit the game?"));
    g.keys(b"y");
    assert_eq!(g.exit_code(), 0, "the screen:\n{}", g.screen());
    let screen = g.parser.screen();
    assert!(!screen.alternate_screen(), "back on the main screen");
    assert!(!screen.hide_cursor(), "the cursor is shown again");
    // The run's summary is printed on the main screen.
    assert!(g.screen().contains("run in progress") && g.screen().contains("seed 5"), "{}", g.screen());
}

/// Where `needle` last occurs in `hay`.
fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// A lone Esc (a key of its own, not the start of a sequence) asks nothing, so the next key is a
/// turn like any other; and the summary printed after the game stays on the main screen: the
/// game leaves the alternate screen once, before printing it (leaving it again would put the
/// cursor back where the game started, and the shell's prompt over the summary).
#[test]
fn a_lone_escape_asks_nothing_and_the_summary_stays_on_the_screen() {
    let mut g = Game::start(&["--seed", "5", "--option", "core:warrior"]);
    g.wait_for("the map and the health bar", playing);
    let first = turn(&g.screen()).expect("a turn in the title");
    g.keys(b"\x1b");
    std::thread::sleep(Duration::from_secs(1));
    g.keys(b".");
    g.wait_for("the turn after a lone Esc", |s| turn(s) == Some(first + 1));
    assert!(!g.screen().contains("Quit the game?"), "{}", g.screen());
    g.keys(b"q");
    g.wait_for("the question", |s| s.contains("Quit the game?"));
    g.keys(b"y");
    assert_eq!(g.exit_code(), 0, "the screen:\n{}", g.screen());
    let leave = b"\x1b[?1049l";
    assert_eq!(g.raw.windows(leave.len()).filter(|w| w == leave).count(), 1, "the alternate screen is left once");
    let (left, summary) = (rfind(&g.raw, leave).expect("left"), rfind(&g.raw, b"run in progress").expect("the summary"));
    assert!(summary > left, "the summary comes after the return to the main screen");
    assert!(g.screen().contains("run in progress") && g.screen().contains("seed 5"), "{}", g.screen());
}

#[cfg(unix)]
#[test]
fn sigterm_restores_the_terminal() {
    let mut g = Game::start(&["--seed", "5", "--option", "core:warrior"]);
    g.wait_for("the map and the health bar", playing);
    assert!(g.parser.screen().alternate_screen());
    let pid = g.child.process_id().expect("a pid");
    let status = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status().expect("kill runs");
    assert!(status.success());
    assert_eq!(g.exit_code(), 128 + 15, "the shell's code of a death by SIGTERM");
    let screen = g.parser.screen();
    assert!(!screen.alternate_screen(), "back on the main screen after SIGTERM");
    assert!(!screen.hide_cursor(), "the cursor is shown after SIGTERM");
}

#[cfg(unix)]
#[test]
fn a_terminal_that_hangs_up_ends_the_game() {
    let mut g = Game::start(&["--seed", "5", "--option", "core:warrior"]);
    g.wait_for("the map and the health bar", playing);
    g.hang_up();
    // The game neither hangs nor spins on a terminal that is gone: it ends as the shell reports a
    // death by SIGHUP, which the kernel sends to the terminal's session.
    assert_eq!(g.exit_code(), 128 + 1);
}

/// The game started by a shell, as by a wrapper script: the shell leads the terminal's session,
/// so the hang-up signal goes to it alone (which ignores it here), and no signal tells the game
/// that its terminal is gone. It ends as if it had been told (it used to wait for input forever,
/// or panic printing its error to the closed terminal).
#[cfg(unix)]
#[test]
fn a_terminal_that_hangs_up_without_a_signal_ends_the_game_too() {
    let dir = TempDir::new("play-tui-status");
    let status = dir.join("status");
    let mut cmd = CommandBuilder::new("sh");
    let script = "trap '' HUP; \"$0\" play --seed 5 --option core:warrior; echo $? > \"$1\"";
    cmd.args(["-c", script, env!("CARGO_BIN_EXE_rustkeep"), &status.to_string_lossy()]);
    let mut g = Game::start_command(cmd);
    g.wait_for("the map and the health bar", playing);
    g.hang_up();
    assert_eq!(g.exit_code(), 0, "the shell ended normally");
    let code = std::fs::read_to_string(&status).expect("the shell wrote the game's exit code");
    assert_eq!(code.trim(), "129", "the game's exit code, as after SIGHUP");
}

/// A warrior's line-console game of `seed` in `dir`, playing `script`, recorded to `rec`: how it
/// ended and what it printed.
fn record_line_game(dir: &std::path::Path, seed: &str, script: &str, rec: &std::path::Path) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .current_dir(dir)
        .args(["play", "--line", "--seed", seed, "--option", "core:warrior", "--record", rec.to_str().expect("UTF-8")])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("rustkeep starts");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("the script");
    child.wait_with_output().expect("rustkeep ends")
}

/// `--replay FILE --watch` plays a recording on screen in a real terminal: it starts paused
/// with Space, steps with `.`, plays to the end at the top speed, and leaves the same save as the
/// headless replay of the same recording.
#[test]
fn a_recording_plays_back_on_screen_to_the_same_state_as_headless() {
    // No mods in the folder: the core alone.
    let dir = TempDir::new("play-tui-watch");
    let (rec, headless, watched) = (dir.join("run.jsonl"), dir.join("headless.json"), dir.join("watched.json"));
    let p = |x: &std::path::Path| x.to_str().expect("UTF-8").to_string();
    // The recording: a line-console game of explores and waits.
    let out = record_line_game(&dir, "7", "explore\nwait\nwait\nexplore\nwait\nquit\n", &rec);
    assert!(out.status.success());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .current_dir(&dir)
        .args(["play", "--replay", &p(&rec), "--save", &p(&headless)])
        .output()
        .expect("the headless replay");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let inputs = std::fs::read_to_string(&rec).expect("the recording").lines().count() - 1;

    let mut g = Game::start(&["--replay", &p(&rec), "--watch", "--speed", "1", "--save", &p(&watched)]);
    g.wait_for("the replay's key line", |s| s.contains("replay ") && s.contains("Space pause"));
    g.keys(b" ");
    g.wait_for("paused", |s| s.contains("paused at 1/s"));
    let before = turn(&g.screen()).expect("a turn in the title");
    g.keys(b".");
    g.wait_for("one input played", |s| s.contains(&format!("replay 1/{inputs}")) && turn(s).is_some_and(|t| t > before));
    // The views are open while watching: the trace of every turn.
    g.keys(b"T");
    g.wait_for("the trace of every turn", |s| s.contains("Trace · command"));
    g.keys(b"\x1b");
    // A lone Esc: the next key must not arrive with it (it would read as Alt and a key).
    g.wait_for("the map again", |s| !s.contains("Trace · command"));
    // Fastest, then on to the end.
    for _ in 0..10 {
        g.keys(b"+");
    }
    g.keys(b" ");
    g.wait_for("the end of the replay", |s| s.contains("replay finished"));
    g.keys(b"q");
    g.wait_for("the question", |s| s.contains("Quit the game?"));
    g.keys(b"y");
    assert_eq!(g.exit_code(), 0, "the screen:\n{}", g.screen());
    assert!(g.screen().contains(&format!("replayed {inputs} of {inputs} inputs")), "{}", g.screen());
    let a = std::fs::read_to_string(&headless).expect("the headless save");
    let b = std::fs::read_to_string(&watched).expect("the watched save");
    assert_eq!(a, b, "the replay on screen ends in the headless replay's state");
}

/// A watched replay that ended in death: `q` asks to quit in plain sight, over the summary box
/// (it once opened hidden under it, and the game looked hung), and `y` ends the program.
#[test]
fn quitting_a_watched_replay_that_ended_in_death_asks_in_plain_sight() {
    let dir = TempDir::new("play-tui-watch-death");
    let rec = dir.join("death.jsonl");
    let p = |x: &std::path::Path| x.to_str().expect("UTF-8").to_string();
    let mut script = String::from("trace off\nspawn core:lich 3\n");
    script.push_str(&"wait\n".repeat(300));
    script.push_str("quit\n");
    let out = record_line_game(&dir, "11", &script, &rec);
    assert!(String::from_utf8_lossy(&out.stdout).contains("You died"), "the recorded run ends in death");

    let mut g = Game::start(&["--replay", &p(&rec), "--watch", "--speed", "1000"]);
    g.wait_for("the end of the replay", |s| s.contains("replay finished") && s.contains("The run is over"));
    g.keys(b"q");
    g.wait_for("the question over the box", |s| s.contains("Quit the game?") && !s.contains("┌ The run is over"));
    g.keys(b"y");
    assert_eq!(g.exit_code(), 0, "the screen:\n{}", g.screen());
}
