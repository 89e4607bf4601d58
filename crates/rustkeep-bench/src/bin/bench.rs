//! The benchmark report: `cargo run --release -p rustkeep-bench --bin bench [-- OPTIONS]`.
//!
//! Generates the synthetic packs (small, medium, large), then measures in one run, on the same
//! files: the parse floor, `rustkeep check` end to end (wall, CPU, peak memory) with one thread
//! and with every core, `rustkeep fmt --check` beside it, scaling from medium to large, and every
//! figure the other components provide (language server latency, loot, engine, the full-screen game). Prints a table of
//! each figure beside its target and writes the same as JSON. Medians over `--runs` repetitions.
//!
//! Options: `--runs N` (default 5), `--sizes small,medium,large`, `--out FILE` (default
//! `target/bench/report.json`), `--rustkeep PATH` (default: the `rustkeep` binary next to this one),
//! `--baseline FILE` (an earlier report: its value of each figure is printed beside the new one),
//! `--only GROUPS` (a comma list of `packs`, `lsp`, `loot`, `engine`, `floor`, `arena`, `careful`, `play`, `test`, `doc`, `diff`, `hostile`: measure only
//! those; the packs are written for `lsp` and `loot` too, but only `packs` measures `check` on them).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Opts {
    runs: usize,
    /// The groups of figures to measure (`None`: all).
    only: Option<Vec<String>>,
    sizes: Vec<rustkeep_bench::Size>,
    out: PathBuf,
    rustkeep: PathBuf,
    baseline: Option<PathBuf>,
}

fn opts() -> Opts {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let exe = std::env::current_exe().expect("own path");
    let sizes = get("--sizes")
        .unwrap_or_else(|| "small,medium,large".into())
        .split(',')
        .map(|s| rustkeep_bench::Size::by_name(s.trim()).unwrap_or_else(|| panic!("unknown size {s}")))
        .collect();
    Opts {
        runs: get("--runs").and_then(|r| r.parse().ok()).unwrap_or(5).max(1),
        only: get("--only").map(|g| g.split(',').map(|s| s.trim().to_string()).collect()),
        sizes,
        out: get("--out").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("target/bench/report.json")),
        rustkeep: get("--rustkeep").map(PathBuf::from).unwrap_or_else(|| exe.with_file_name("rustkeep")),
        baseline: get("--baseline").map(PathBuf::from),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

/// One child run: wall seconds, CPU seconds (user + system), peak resident set in bytes.
struct Run {
    wall: f64,
    cpu: f64,
    peak_rss: u64,
    /// The exit code (`None`: ended by a signal).
    code: Option<i32>,
}

/// The hidden first argument that makes this binary the launcher of one measured command.
const MEASURE_CHILD: &str = "--measure-child";

/// One child run, measured by a fresh copy of this binary ([`MEASURE_CHILD`]) that starts the
/// command and reports on it. Linux counts a process's peak memory from before its `exec`: a child
/// started straight from this process, which holds hundreds of megabytes once the packs are
/// analysed, would report at least that much. The launcher is small when it starts the command.
fn run_child(cmd: &mut Command) -> Run {
    let exe = std::env::current_exe().expect("own path");
    let mut launcher = Command::new(exe);
    launcher.arg(MEASURE_CHILD).arg(cmd.get_program()).args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(v) => launcher.env(key, v),
            None => launcher.env_remove(key),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        launcher.current_dir(dir);
    }
    let out = launcher.stderr(Stdio::inherit()).output().expect("the benchmark's launcher runs");
    let line = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 4, "the launcher reports wall, CPU, memory and exit code: {line:?}");
    let num = |i: usize| f[i].parse::<f64>().expect("a number from the launcher");
    Run { wall: num(0), cpu: num(1), peak_rss: num(2) as u64, code: f[3].parse().ok() }
}

/// The launcher's side of [`run_child`]: runs `args` (program first) with output discarded and
/// prints `wall cpu peak_rss code` (seconds, seconds, bytes, exit code or `-` after a signal).
// The child is reaped by `wait4` (which also reports its CPU time and peak memory), not by
// `Child::wait`, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn measure_child(args: &[String]) {
    let start = Instant::now();
    let child = Command::new(&args[0])
        .args(&args[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the rustkeep binary runs (build it with --release first)");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; `pid` is our own child, reaped once here.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed().as_secs_f64();
    assert_eq!(r, pid, "wait4 failed");
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status).to_string() } else { "-".to_string() };
    println!("{wall} {} {} {code}", tv(usage.ru_utime) + tv(usage.ru_stime), usage.ru_maxrss as u64 * 1024);
}

/// The four timed commands of a pack: `check` and `fmt --check`, each on one thread and on every
/// core. `fmt --check` reads the files, checks their validity and formats them in memory; nothing
/// is written (the generated pack is not in the canonical layout, so every data file is
/// reformatted, which is the expensive case).
const COMMANDS: [&[&str]; 2] = [&["check", "--format", "json"], &["fmt", "--check"]];

/// Median wall time, CPU time and peak memory of each command at each thread count, in the
/// order of [`COMMANDS`] × `[1, cores]`. The runs go round-robin over the configurations, so that
/// the machine's drift in speed (a fifth within minutes on a shared virtual machine) weighs on
/// every figure alike instead of on the ratios between them.
fn command_runs(opts: &Opts, pack: &Path, cores: usize) -> Vec<(f64, f64, u64)> {
    let configs: Vec<(&[&str], usize)> = COMMANDS.iter().flat_map(|args| [(*args, 1), (*args, cores)]).collect();
    let mut samples: Vec<(Vec<f64>, Vec<f64>, Vec<f64>)> = vec![Default::default(); configs.len()];
    for _ in 0..opts.runs {
        for ((args, threads), (walls, cpus, rss)) in configs.iter().zip(&mut samples) {
            let r = run_child(Command::new(&opts.rustkeep).args(*args).arg(pack).env("RUSTKEEP_THREADS", threads.to_string()));
            walls.push(r.wall);
            cpus.push(r.cpu);
            rss.push(r.peak_rss as f64);
        }
    }
    samples.into_iter().map(|(w, c, r)| (median(w), median(c), median(r) as u64)).collect()
}

fn parse_floor(opts: &Opts, pack: &Path) -> f64 {
    median(
        (0..opts.runs)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(rustkeep_bench::parse_floor(pack));
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

struct Row {
    figure: String,
    value: String,
    target: String,
    ok: Option<bool>,
}

impl Row {
    /// A figure the report gives without a target.
    fn measured(figure: String, value: String) -> Row {
        Row { figure, value, target: "—".into(), ok: None }
    }

    /// A ratio with the bound it must keep: `value` as "1.23 ×", the target as "≤ 1.3 ×".
    fn ratio(figure: impl Into<String>, value: String, target: &str, ok: bool) -> Row {
        Row { figure: figure.into(), value, target: target.into(), ok: Some(ok) }
    }
}

/// The value of every figure of an earlier report, by figure.
fn baseline(path: &Path) -> std::collections::HashMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read the baseline {}: {e}", path.display()));
    let report: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("the baseline {} is no report: {e}", path.display()));
    let rows = report["rows"].as_array().cloned().unwrap_or_default();
    rows.iter().filter_map(|r| Some((r["figure"].as_str()?.to_string(), r["value"].as_str()?.to_string()))).collect()
}

/// The allocator `rustkeep` ships with, so that the parse floor is measured under it too (docs/ARCHITECTURE.md, "Why each dependency is there").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(MEASURE_CHILD) {
        return measure_child(&args[1..]);
    }
    // The one thread setting (RUSTKEEP_THREADS) for the figures measured in this process; the
    // timed `rustkeep` commands get theirs in their environment, and the one-core and all-core
    // figures of the engine run on pools of their own size.
    let _ = rustkeep_data::threads::configure();
    let opts = opts();
    let root = PathBuf::from("target/bench/packs");
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut rows: Vec<Row> = Vec::new();
    let mut report = json!({ "machine": { "cores": cores, "os": std::env::consts::OS, "arch": std::env::consts::ARCH }, "runs": opts.runs, "sizes": {} });
    let mut per_size: Vec<(rustkeep_bench::Size, f64, u64)> = Vec::new();

    let wanted = |group: &str| opts.only.as_ref().is_none_or(|g| g.iter().any(|x| x == group));
    // The language server and loot figures run on the packs too; only `packs` checks them.
    for size in opts.sizes.iter().filter(|_| wanted("packs") || wanted("lsp") || wanted("loot")) {
        let pack = root.join(size.name);
        let (files, bytes) = rustkeep_bench::generate(&pack, *size).expect("pack written");
        eprintln!("{}: {} entries, {files} files, {:.1} MB", size.name, size.entries(), bytes as f64 / 1e6);
        if !wanted("packs") {
            continue;
        }
        let floor = parse_floor(&opts, &pack);
        let timed = command_runs(&opts, &pack, cores);
        let [(wall1, cpu1, rss1), (wall_n, cpu_n, rss_n), (fmt_wall1, fmt_cpu1, _), (fmt_wall_n, fmt_cpu_n, fmt_rss_n)] = timed[..] else {
            unreachable!("two commands at two thread counts")
        };
        report["sizes"][size.name] = json!({
            "entries": size.entries(), "files": files, "bytes": bytes,
            "parse_floor_s": floor,
            "check_1_thread": { "wall_s": wall1, "cpu_s": cpu1, "peak_rss_bytes": rss1 },
            "check_all_cores": { "threads": cores, "wall_s": wall_n, "cpu_s": cpu_n, "peak_rss_bytes": rss_n },
            "fmt_check_1_thread": { "wall_s": fmt_wall1, "cpu_s": fmt_cpu1 },
            "fmt_check_all_cores": { "threads": cores, "wall_s": fmt_wall_n, "cpu_s": fmt_cpu_n, "peak_rss_bytes": fmt_rss_n },
        });
        rows.push(Row::measured(format!("{}: parse floor (1 thread)", size.name), ms(floor)));
        rows.push(Row::measured(format!("{}: check, 1 thread (wall / CPU)", size.name), format!("{} / {}", ms(wall1), ms(cpu1))));
        rows.push(Row::measured(format!("{}: check, {cores} threads (wall / CPU)", size.name), format!("{} / {}", ms(wall_n), ms(cpu_n))));
        rows.push(Row::measured(format!("{}: fmt --check, 1 thread / {cores} threads (wall)", size.name), format!("{} / {}", ms(fmt_wall1), ms(fmt_wall_n))));
        rows.push(Row::measured(format!("{}: peak memory", size.name), format!("{:.0} MB ({:.1} × input)", rss_n as f64 / 1e6, rss_n as f64 / bytes as f64)));
        if size.name == "large" {
            let ratio = wall1 / floor;
            rows.push(Row::ratio("large: check 1 thread ÷ parse floor", format!("{ratio:.2} ×"), "≤ 1.3 ×", ratio <= 1.3));
            let speedup = wall1 / wall_n;
            rows.push(Row::ratio(format!("large: speed-up on {cores} cores"), format!("{speedup:.2} ×"), "≥ 1.6 ×", speedup >= 1.6));
            let mem = rss_n.max(rss1) as f64 / bytes as f64;
            rows.push(Row::ratio("large: peak memory ÷ input size", format!("{mem:.1} ×"), "≤ 10 ×", mem <= 10.0));
            // The formatter must not be the slow step of a CI job: `fmt --check` on the pack takes no
            // longer than `check` on it, single-threaded and on every core.
            let fmt_vs_check = (fmt_wall1 / wall1).max(fmt_wall_n / wall_n);
            let figure = "large: fmt --check ÷ check (worse of 1 thread and all cores)";
            rows.push(Row::ratio(figure, format!("{fmt_vs_check:.2} ×"), "≤ 1.0 ×", fmt_vs_check <= 1.0));
            report["targets"]["fmt_check_vs_check"] = json!(fmt_vs_check);
            report["targets"]["check_vs_floor"] = json!(ratio);
            report["targets"]["speedup"] = json!(speedup);
            report["targets"]["memory_ratio"] = json!(mem);
        }
        per_size.push((*size, wall_n, size.entries() as u64));
    }
    let medium = per_size.iter().find(|s| s.0.name == "medium");
    let large = per_size.iter().find(|s| s.0.name == "large");
    if let (Some(m), Some(l)) = (medium, large) {
        let growth = (l.1 / m.1) / (l.2 as f64 / m.2 as f64);
        rows.push(Row::ratio("scaling medium → large (time ratio ÷ size ratio)", format!("{growth:.2} ×"), "≤ 1.1 ×", growth <= 1.1));
        report["targets"]["scaling"] = json!(growth);
    }

    for extra in rustkeep_bench::extra_figures(&root, &opts.rustkeep, opts.runs, &wanted) {
        rows.push(Row { figure: extra.figure, value: extra.value, target: extra.target, ok: extra.ok });
        report["extra"][&rows.last().unwrap().figure] = extra.json;
    }

    if wanted("hostile") {
        rows.extend(hostile_rows(&opts));
    }

    let before = opts.baseline.as_deref().map(baseline);
    print_table(&rows, before.as_ref());
    report["rows"] = Value::Array(rows.iter().map(|r| json!({ "figure": r.figure, "value": r.value, "target": r.target, "met": r.ok })).collect());
    if let Some(dir) = opts.out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(&opts.out, serde_json::to_string_pretty(&report).unwrap() + "\n").expect("report written");
    eprintln!("report written to {}", opts.out.display());
}

/// The hostile inputs of the security review (`rustkeep_bench::hostile`): each command's median
/// wall time and its largest peak memory over the runs, against 2 s and 200 MB.
fn hostile_rows(opts: &Opts) -> Vec<Row> {
    let dir = PathBuf::from("target/bench/hostile").canonicalize().unwrap_or_else(|_| std::env::current_dir().unwrap_or_default().join("target/bench/hostile"));
    let cases = match rustkeep_bench::hostile::cases(&opts.rustkeep, &dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hostile: the inputs could not be written: {e}");
            return Vec::new();
        }
    };
    let mut rows = Vec::new();
    for case in cases {
        let mut walls = Vec::new();
        let mut peak = 0u64;
        for _ in 0..opts.runs.max(3) {
            let r = run_child(Command::new(&opts.rustkeep).args(&case.args).current_dir(&case.cwd));
            assert_eq!(r.code, Some(case.code), "`rustkeep {}` exited {:?}", case.args.join(" "), r.code);
            walls.push(r.wall);
            peak = peak.max(r.peak_rss);
        }
        let wall = median(walls);
        let ok = case.bounded.then_some(wall <= 2.0 && peak <= 200_000_000);
        let target = if case.bounded { "≤ 2 s and ≤ 200 MB" } else { "linear" };
        rows.push(Row { figure: case.figure.to_string(), value: format!("{} / {:.0} MB", ms(wall), peak as f64 / 1e6), target: target.into(), ok });
    }
    rows
}

fn ms(s: f64) -> String {
    let d = Duration::from_secs_f64(s.max(0.0));
    if d.as_secs_f64() >= 1.0 {
        format!("{:.2} s", d.as_secs_f64())
    } else {
        format!("{:.1} ms", d.as_secs_f64() * 1e3)
    }
}

/// Prints the rows as a Markdown table; with a baseline, its values in a column before them.
fn print_table(rows: &[Row], before: Option<&std::collections::HashMap<String, String>>) {
    let old = |r: &Row| before.map(|b| b.get(&r.figure).cloned().unwrap_or_else(|| "—".into()));
    let w0 = rows.iter().map(|r| r.figure.chars().count()).max().unwrap_or(6).max(6);
    let w1 = rows.iter().map(|r| r.value.chars().count()).max().unwrap_or(5).max(5);
    let w2 = rows.iter().map(|r| r.target.chars().count()).max().unwrap_or(6).max(6);
    let wb = rows.iter().filter_map(&old).map(|v| v.chars().count()).max().unwrap_or(6).max(6);
    match before {
        Some(_) => {
            println!("| {:w0$} | {:wb$} | {:w1$} | {:w2$} | met |", "figure", "before", "value", "target");
            println!("|{}|{}|{}|{}|-----|", "-".repeat(w0 + 2), "-".repeat(wb + 2), "-".repeat(w1 + 2), "-".repeat(w2 + 2));
        }
        None => {
            println!("| {:w0$} | {:w1$} | {:w2$} | met |", "figure", "value", "target");
            println!("|{}|{}|{}|-----|", "-".repeat(w0 + 2), "-".repeat(w1 + 2), "-".repeat(w2 + 2));
        }
    }
    for r in rows {
        let met = match r.ok {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "",
        };
        match old(r) {
            Some(b) => println!("| {:w0$} | {b:wb$} | {:w1$} | {:w2$} | {met:3} |", r.figure, r.value, r.target),
            None => println!("| {:w0$} | {:w1$} | {:w2$} | {met:3} |", r.figure, r.value, r.target),
        }
    }
}
