//! The hostile inputs of the security review, as commands to time (docs/engine.md, "Bounded
//! work"): each must end in under 2 s and 200 MB on the reference machine. The bench binary runs
//! them as child processes (`wait4` gives their CPU time and peak memory); this module writes the
//! inputs and says what each command is.

use std::path::{Path, PathBuf};

/// One command of the group `hostile`.
pub struct Case {
    /// The figure's name in the report.
    pub figure: &'static str,
    pub cwd: PathBuf,
    pub args: Vec<String>,
    /// The exit code the command must end with (a refusal is 2).
    pub code: i32,
    /// Whether the 2 s and 200 MB target applies (the others are reported for comparison).
    pub bounded: bool,
}

const WARRIOR: &str = "[player]\noptions = [\"core:warrior\"]\n";

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

/// A recording made by `rustkeep play --record` (so its header names the core as it is), followed
/// by `inputs`.
fn recording(exe: &Path, dir: &Path, inputs: &str) -> std::io::Result<PathBuf> {
    let path = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&path);
    let o = std::process::Command::new(exe)
        .args(["play", "--line", "--option", "core:warrior", "--seed", "1", "--record"])
        .arg(&path)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()?;
    if !o.status.success() {
        return Err(std::io::Error::other(String::from_utf8_lossy(&o.stderr).into_owned()));
    }
    let header = std::fs::read_to_string(&path)?;
    std::fs::write(&path, format!("{header}{inputs}"))?;
    Ok(path)
}

/// Writes the inputs below `dir` and lists the commands.
pub fn cases(exe: &Path, dir: &Path) -> std::io::Result<Vec<Case>> {
    let _ = std::fs::remove_dir_all(dir);
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut out = Vec::new();

    // The review's ten lines: four billion rats (refused by the check before anything runs).
    let horde = dir.join("horde");
    write(
        &horde.join("scenarios/horde.toml"),
        &format!("{WARRIOR}[[enemies]]\ncreature = \"core:rat\"\ncount = 4000000000\n[[steps]]\nattack = \"enemy:0\"\n[[expect]]\nevent = \"turn_started\"\n"),
    )?;
    out.push(Case { figure: "hostile: `rustkeep test` of four billion rats (refused)", cwd: horde, args: args(&["test", "."]), code: 2, bounded: true });

    // The largest scenario the limits let through: 1,000 acting rats for 10,000 steps, which
    // stops at the run's budget of events.
    let siege = dir.join("siege");
    let waits = "[[steps]]\nwait = true\n".repeat(10_000);
    write(
        &siege.join("scenarios/siege.toml"),
        &format!("enemies_act = true\n{WARRIOR}[[enemies]]\ncreature = \"core:rat\"\ncount = 1000\n{waits}[[expect]]\nevent = \"turn_started\"\n"),
    )?;
    out.push(Case {
        figure: "hostile: `rustkeep test` of 1,000 acting rats for 10,000 steps (stops at 100,000 events)",
        cwd: siege.clone(),
        args: args(&["test", "."]),
        code: 0,
        bounded: true,
    });
    out.push(Case {
        figure: "hostile: `rustkeep simulate --format json` of the same",
        cwd: siege,
        args: args(&["simulate", "scenarios/siege.toml", "--format", "json"]),
        code: 0,
        bounded: true,
    });

    // The review's 11 KB recording of `spawn core:rat 100`: every newcomer needs a free tile of
    // the floor, so the spawns fill it (245 rats on the first floor of seed 1) and then bring
    // nobody, each still a turn of every rat.
    let spawns = dir.join("spawns");
    std::fs::create_dir_all(&spawns)?;
    recording(exe, &spawns, &"{\"input\":\"spawn core:rat 100\"}\n".repeat(580))?;
    out.push(Case {
        figure: "hostile: replay of the 11 KB recording of `spawn core:rat 100` (the floor fills)",
        cwd: spawns,
        args: args(&["play", "--replay", "game.jsonl"]),
        code: 0,
        bounded: true,
    });

    // The floor filled with rats, then waits: every input a round of every rat's turn. Linear in
    // the recording (300 and 600 waits).
    for (waits, figure) in
        [(300, "hostile: replay of 10 spawns of 100 rats and 300 waits (5.6 KB)"), (600, "hostile: replay of 10 spawns of 100 rats and 600 waits (10.7 KB)")]
    {
        let d = dir.join(format!("waits{waits}"));
        std::fs::create_dir_all(&d)?;
        let inputs = format!("{}{}", "{\"input\":\"spawn core:rat 100\"}\n".repeat(10), "{\"input\":\"wait\"}\n".repeat(waits));
        recording(exe, &d, &inputs)?;
        out.push(Case { figure, cwd: d, args: args(&["play", "--replay", "game.jsonl", "--force"]), code: 0, bounded: false });
    }

    // An arena expectation of 50,000 fights against a creature a million times as fast as the
    // player that nothing can kill: a hundred enemy turns per turn of the player, until the
    // batch's 10,000,000 turns are used.
    let fast = dir.join("fast-arena");
    write(&fast.join("mod.toml"), "[mod]\nid = \"fast\"\nname = \"Fast\"\nversion = \"0.1.0\"\nlibrary = true\n")?;
    write(
        &fast.join("creatures.toml"),
        "[[creatures]]\nid = \"fast:blur\"\nname = \"Blur\"\nglyph = \"b\"\nattributes = { level = 1, max_health = 9223372036854775807, damage = 1, accuracy = 1, evasion = 1, speed = 1000000 }\n",
    )?;
    write(
        &fast.join("scenarios/blur.toml"),
        &format!("seed = 1\nmods = [\"..\"]\n{WARRIOR}[[enemies]]\ncreature = \"fast:blur\"\n[[expect]]\narena = {{ runs = 50000 }}\nwin_rate = {{ at_least = 0.0 }}\n"),
    )?;
    out.push(Case {
        figure: "hostile: `rustkeep test` of 50,000 fights against an unkillable creature a million times as fast",
        cwd: fast,
        args: args(&["test", "."]),
        code: 0,
        bounded: true,
    });

    // `[renamed]` as one chain of 20,000 steps, each old ID leading to the next, and as one
    // cycle of 5,000: each old ID's chain is followed to its end once.
    let steps = |n: usize, last: usize| (0..n).map(|i| format!("\"ch:a{i}\" = \"ch:a{}\"\n", if i + 1 == n { last } else { i + 1 })).collect::<String>();
    let manifest = "[mod]\nid = \"ch\"\nname = \"Chain\"\nversion = \"1.0.0\"\n\n[renamed]\n";
    let chain = dir.join("renames-chain");
    write(&chain.join("mod.toml"), &format!("{manifest}{}", steps(20_000, 20_000)))?;
    write(
        &chain.join("data.toml"),
        "[[items]]\nid = \"ch:a20000\"\nname = \"End\"\nuse = [ { action = \"heal\", amount = 1, target = \"self\" } ]\n\n[[loot_tables]]\nid = \"ch:drops\"\nentries = [ { item = \"ch:a0\", weight = 1 } ]\n",
    )?;
    out.push(Case { figure: "hostile: `rustkeep check` of a chain of 20,000 renames", cwd: chain, args: args(&["check", "."]), code: 0, bounded: true });
    let cycle = dir.join("renames-cycle");
    write(&cycle.join("mod.toml"), &format!("{manifest}{}", steps(5_000, 0)))?;
    out.push(Case { figure: "hostile: `rustkeep check` of a cycle of 5,000 renames", cwd: cycle, args: args(&["check", "."]), code: 1, bounded: true });
    Ok(out)
}
