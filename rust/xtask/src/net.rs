//! `cargo xtask net-test`: real processes over ENet on 127.0.0.1. A headless host (the demo,
//! `--host`) and a headless client playing the autopilot (`--join`); then a hostile peer. The
//! host records the client's avatar as it shows it, the client its own body; this compares them.
//! Run twice: a clean network, then 10 % of state packets dropped and up to 50 ms of extra delay
//! in the host's receiving path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::{GodotRun, prepare, run_captured};
use crate::godot::Godot;
use crate::repo_root;

/// One recorded frame: a time and the two hand bones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub time: f64,
    pub hands: [[f64; 3]; 2],
}

/// What one peer recorded.
#[derive(Debug, Default)]
pub struct Record {
    /// Its own body, by its clock.
    pub local: Vec<Frame>,
    /// Each remote avatar (by peer id) as shown, with the sender's time shown, and whether it
    /// was interpolated then.
    pub remote: BTreeMap<String, Vec<(Frame, String)>>,
    pub stats: BTreeMap<String, String>,
    pub sent: Vec<String>,
    pub played: Vec<String>,
}

pub fn parse_record(text: &str) -> Record {
    let mut r = Record::default();
    let hands = |f: &[&str]| -> Option<[[f64; 3]; 2]> {
        let v: Vec<f64> = f.iter().filter_map(|x| x.parse().ok()).collect();
        (v.len() == 6).then(|| [[v[0], v[1], v[2]], [v[3], v[4], v[5]]])
    };
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["L", t, rest @ ..] => {
                if let (Ok(time), Some(hands)) = (t.parse(), hands(rest)) {
                    r.local.push(Frame { time, hands });
                }
            }
            ["R", peer, t, playback, rest @ ..] => {
                if let (Ok(time), Some(hands)) = (t.parse(), hands(rest)) {
                    r.remote
                        .entry(peer.to_string())
                        .or_default()
                        .push((Frame { time, hands }, playback.to_string()));
                }
            }
            ["S", key, value @ ..] => {
                r.stats.insert(key.to_string(), value.join(" "));
            }
            ["E", "sent", e] => r.sent.push(e.to_string()),
            ["E", "played", e] => r.played.push(e.to_string()),
            _ => {}
        }
    }
    r
}

/// The sender's hands at `time`, interpolated between its recorded frames.
fn local_at(local: &[Frame], time: f64) -> Option<[[f64; 3]; 2]> {
    let i = local.partition_point(|f| f.time <= time);
    if i == 0 || i == local.len() {
        return None;
    }
    let (a, b) = (local[i - 1], local[i]);
    let f = (time - a.time) / (b.time - a.time).max(1e-9);
    Some([0, 1].map(|h| [0, 1, 2].map(|k| a.hands[h][k] + (b.hands[h][k] - a.hands[h][k]) * f)))
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The figures of one run.
#[derive(Debug)]
pub struct Judged {
    pub frames_compared: usize,
    pub p95_m: f64,
    pub worst_step_m: f64,
    /// Where the worst step was, and how the avatar was played on either side of it.
    pub worst_step_at: String,
    pub state_bytes_per_s: f64,
    /// A state packet with its share of ENet's overhead (bytes).
    pub state_packet_bytes: f64,
    pub event_bytes_per_s: f64,
    pub upload_bytes_per_s: f64,
    pub problems: Vec<String>,
}

/// Compares the host's view of the client with the client's own body, and the events.
pub fn judge(host: &Record, client: &Record) -> Judged {
    let mut problems = Vec::new();
    let shown: Vec<&(Frame, String)> = host.remote.values().flatten().collect();
    if host.remote.len() != 1 {
        problems.push(format!(
            "the host showed {} remote avatars, not 1",
            host.remote.len()
        ));
    }
    let mut errors: Vec<f64> = Vec::new();
    // A step of the shown hand beyond the sender's own step over the same time (the sender
    // itself may turn or teleport).
    let mut worst_step: f64 = 0.0;
    let mut worst_step_at = String::new();
    // (A remote avatar is hidden while it waits for its first state.)
    let mut last: Option<(Frame, &str)> = None;
    for (frame, playback) in &shown {
        if playback == "waiting" {
            continue;
        }
        if let Some((prev, prev_playback)) = last {
            let own = (
                local_at(&client.local, prev.time),
                local_at(&client.local, frame.time),
            );
            for h in 0..2 {
                let sender_step = match own {
                    (Some(a), Some(b)) => dist(a[h], b[h]),
                    _ => 0.0,
                };
                let step = dist(frame.hands[h], prev.hands[h]) - sender_step;
                if step > worst_step {
                    worst_step = step;
                    worst_step_at = format!(
                        "the {} hand at sender time {:.3} s, {prev_playback} then {playback}",
                        ["left", "right"][h],
                        frame.time
                    );
                }
            }
        }
        last = Some((*frame, playback.as_str()));
        if playback != "interpolated" {
            continue;
        }
        if let Some(truth) = local_at(&client.local, frame.time) {
            for (shown, was) in frame.hands.iter().zip(truth) {
                errors.push(dist(*shown, was));
            }
        }
    }
    errors.sort_by(f64::total_cmp);
    let p95 = errors
        .get(errors.len() * 95 / 100)
        .copied()
        .unwrap_or(f64::INFINITY);
    if errors.len() < 400 {
        problems.push(format!("only {} hand positions compared", errors.len()));
    }
    if p95 > 0.03 {
        problems.push(format!(
            "the remote hands are {p95:.4} m from the client's one delay earlier (95th percentile; at most 0.03)"
        ));
    }
    if worst_step > 0.05 {
        problems.push(format!(
            "a remote hand stepped {worst_step:.4} m between frames (at most 0.05): {worst_step_at}"
        ));
    }
    // The host drew the client's revolver in its avatar's hand, and its shots' flashes.
    let shown = |k: &str| {
        host.stats
            .get(k)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    if client.sent.iter().any(|e| e == "draw") && shown("remote_gun_shown_frames") == 0 {
        problems.push("the client drew its revolver, the host never showed it in the hand".into());
    }
    let shots = client.sent.iter().filter(|e| *e == "fire").count();
    if shots > 0 && shown("remote_flash_frames") == 0 {
        problems.push(format!(
            "the client fired {shots} times, the host showed no muzzle flash"
        ));
    }
    if client.sent.is_empty() {
        problems.push("the client sent no revolver events".into());
    }
    if host.played != client.sent {
        problems.push(format!(
            "events sent {:?}, played on the host {:?}",
            client.sent, host.played
        ));
    }
    let stat = |r: &Record, k: &str| r.stats.get(k).and_then(|v| v.parse::<f64>().ok());
    let seconds = stat(client, "clock").unwrap_or(0.0).max(1e-3);
    let state_bytes = stat(client, "state_bytes_sent").unwrap_or(0.0);
    let event_bytes = stat(client, "event_bytes_sent").unwrap_or(0.0);
    let enet_bytes = stat(client, "enet_sent_bytes").unwrap_or(0.0);
    let enet_packets = stat(client, "enet_sent_packets").unwrap_or(0.0).max(1.0);
    let state_packets = stat(client, "state_packets_sent").unwrap_or(0.0);
    let event_packets = stat(client, "event_packets_sent").unwrap_or(0.0);
    // ENet's bytes beyond the payloads, shared out per packet it sent.
    let overhead = (enet_bytes - state_bytes - event_bytes).max(0.0) / enet_packets;
    let state_per_s = (state_bytes + state_packets * overhead) / seconds;
    let event_per_s = (event_bytes + event_packets * overhead) / seconds;
    let upload = enet_bytes / seconds;
    if upload > 2000.0 {
        problems.push(format!(
            "the client uploads {upload:.0} B/s with ENet's overhead (at most 2000 for one avatar at 30 Hz)"
        ));
    }
    Judged {
        frames_compared: errors.len() / 2,
        p95_m: p95,
        worst_step_m: worst_step,
        worst_step_at,
        state_bytes_per_s: state_per_s,
        state_packet_bytes: (state_bytes + state_packets * overhead) / state_packets.max(1.0),
        event_bytes_per_s: event_per_s,
        upload_bytes_per_s: upload,
        problems,
    }
}

fn demo(godot: &Godot, args: &[String]) -> std::process::Command {
    let mut cmd = godot.command(["--headless", "--xr-mode", "off", "--path"]);
    cmd.arg(repo_root().join("demo_project"))
        .arg("--")
        .args(args);
    cmd
}

fn free_port() -> Result<u16, String> {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free UDP port: {e}"))
}

fn check_run(name: &str, run: &GodotRun) -> Result<(), String> {
    let fatal = run.fatal_lines();
    if !run.success || !fatal.is_empty() {
        return Err(format!("the {name} failed ({}): {fatal:?}", run.status));
    }
    Ok(())
}

/// One host, one client, one hostile peer; `impaired` makes the host's receiving path lossy.
fn session(godot: &Godot, dir: &Path, impaired: bool) -> Result<(Record, Record), String> {
    let port = free_port()?.to_string();
    let host_file = dir.join(if impaired {
        "host_impaired.txt"
    } else {
        "host.txt"
    });
    let client_file = dir.join("client.txt");
    let mut host_args = vec![
        "--host".to_string(),
        format!("--port={port}"),
        "--quit-when-alone".into(),
        "--demo-seconds=90".into(),
        format!("--net-record={}", host_file.display()),
    ];
    if impaired {
        host_args.extend(["--net-drop=0.1".into(), "--net-delay=0.05".into()]);
    }
    let host_cmd = demo(godot, &host_args);
    let host = std::thread::spawn(move || run_captured(host_cmd, Duration::from_secs(150)));
    std::thread::sleep(Duration::from_secs(3));
    let hostile = run_captured(
        demo(
            godot,
            &[
                "--join=127.0.0.1".into(),
                format!("--port={port}"),
                "--hostile".into(),
            ],
        ),
        Duration::from_secs(60),
    )?;
    check_run("hostile peer", &hostile)?;
    let client = run_captured(
        demo(
            godot,
            &[
                "--join=127.0.0.1".into(),
                format!("--port={port}"),
                "--autopilot".into(),
                // As a person moves: a 30 Hz stream cannot carry a hand that jumps 60 cm
                // between two frames (the autopilot's default) within 3 cm.
                "--move-speed=1.5".into(),
                format!("--net-record={}", client_file.display()),
            ],
        ),
        Duration::from_secs(120),
    )?;
    check_run("client", &client)?;
    let host = host
        .join()
        .map_err(|_| "the host thread panicked".to_string())??;
    check_run("host", &host)?;
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p)
            .map(|t| parse_record(&t))
            .map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    Ok((read(&host_file)?, read(&client_file)?))
}

/// The host's counts of the hostile peer's packets: each kind dropped, none shown.
fn hostile_problems(host: &Record) -> Vec<String> {
    let n = |k: &str| {
        host.stats
            .get(k)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let mut out = Vec::new();
    for (k, want) in [
        ("dropped_truncated", 1),
        ("dropped_oversized", 1),
        ("dropped_wrong_kind", 1),
        ("dropped_corrupt", 2),
        ("dropped_absurd", 1),
    ] {
        if n(k) < want {
            out.push(format!("{k} = {} (the hostile peer sent {want})", n(k)));
        }
    }
    if n("players_joined") != 1 {
        out.push(format!(
            "{} players joined on the host (the hostile one must not)",
            n("players_joined")
        ));
    }
    out
}

/// The "Figures" section of docs/multiplayer.md from the runs (name, figures, problems).
pub fn figures_section(runs: &[(&str, &Judged, usize)], events: &[String]) -> String {
    let mut rows = String::new();
    for (name, j, _) in runs {
        rows += &format!(
            "| {name} | {:.1} mm | {:.1} mm | {:.0} B/s | {:.0} B/s | {:.0} B/s |\n",
            j.p95_m * 1000.0,
            j.worst_step_m * 1000.0,
            j.upload_bytes_per_s,
            j.state_bytes_per_s,
            j.event_bytes_per_s
        );
    }
    let all = |f: &dyn Fn(&Judged) -> bool| runs.iter().all(|(_, j, _)| f(j));
    let hands = if all(&|j| j.p95_m <= 0.03) {
        "within the 30 mm target in both runs"
    } else {
        "**not** within the 30 mm target in every run"
    };
    let steps = if all(&|j| j.worst_step_m <= 0.05) {
        "no shown hand stepped more than 5 cm beyond the sender's own step"
    } else {
        "a shown hand **did** step more than 5 cm beyond the sender's own step"
    };
    let upload = if all(&|j| j.upload_bytes_per_s <= 2000.0) {
        "under"
    } else {
        "**over**"
    };
    let clean = runs.iter().all(|(_, _, problems)| *problems == 0);
    // The clean run's packet, with its share of ENet's overhead, at other rates.
    let packet = runs.first().map_or(0.0, |(_, j, _)| j.state_packet_bytes);
    let rates: String = [30.0, 60.0, 90.0]
        .map(|hz| format!("| {hz:.0} Hz | {:.0} B/s |\n", packet * hz))
        .concat();
    let stream = runs.first().map_or(0.0, |(_, j, _)| j.state_bytes_per_s);
    let reached = stream / packet.max(1.0);
    let hosts: String = [8.0, 16.0, 32.0, 64.0]
        .map(|n: f64| {
            let upload = n * (n - 1.0) * stream;
            let shown = if upload >= 1e6 {
                format!("{:.1} MB/s", upload / 1e6)
            } else {
                format!("{:.0} kB/s", upload / 1e3)
            };
            format!(
                "| {n:.0} | {n:.0} x {:.0} = {:.0} | about {shown} |\n",
                n - 1.0,
                n * (n - 1.0)
            )
        })
        .concat();
    format!(
        "Generated by `cargo xtask net-test` (`rust/xtask/src/net.rs`): a headless host, a \
hostile peer, and a client playing the demo's autopilot with its hands and head easing at up to \
1.5 m/s and 8 rad/s, as a person moves (`--move-speed=1.5`), over ENet on 127.0.0.1. The host \
compares the client's avatar as it shows it with the client's own hand bones at the sender's \
time shown (interpolated frames; the avatar is hidden until its first state plays).\n\n\
| network | hand bones, 95th percentile | worst step beyond the sender's | upload of the client (ENet, all traffic) | state stream | events |\n\
|---|---|---|---|---|---|\n\
{rows}\n\
The hands are {hands}; {steps}. The upload is {upload} the 2 kB/s target at 30 Hz. The state \
stream and events columns share ENet's bytes beyond the payloads out per packet. The revolver's \
events, {events}, {arrived}. The figures move a little from run to run (the processes share the \
machine and run in real time).\n\n\
The autopilot's default moves jump the controllers up to 60 cm between two frames; a 30 Hz \
stream spreads such a jump over a packet interval, so the remote hands then trail by up to the \
jump for one interval. A person's hands do not jump, which is why the test eases them.\n\n\
The state stream per avatar at other send rates, from the clean run's state packet with its \
share of ENet's overhead ({packet:.1} bytes) times the rate (`send_rate_hz`; the clean run's \
sender reached {reached:.1} packets a second of its 30):\n\n\
| send rate | state stream |\n\
|---|---|\n\
{rates}\n\
Host upload, back of the envelope (not measured): the host relays each player's stream to every \
other player, {stream:.0} B/s per stream as the clean run measured (plus a few bytes of relay \
header per packet); events are a few bytes a second more:\n\n\
| players | streams the host sends | host upload |\n\
|---|---|---|\n\
{hosts}",
        events = events.join(", "),
        arrived = if clean {
            "arrived once and in order, and every hostile packet was dropped and counted, in both runs"
        } else {
            "or the hostile packets, **failed** a check (see the command's output)"
        },
    )
}

/// `cargo xtask net-test`; `write`: put the figures in docs/multiplayer.md.
pub fn run_net_test(write: bool) -> Result<(), String> {
    let godot = prepare("demo_project")?;
    let dir = repo_root().join("target/net-test");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    let mut judged = Vec::new();
    let mut events = Vec::new();
    for impaired in [false, true] {
        let (host, client) = session(&godot, &dir, impaired)?;
        let j = judge(&host, &client);
        let name = if impaired {
            "10 % loss, up to 50 ms extra delay"
        } else {
            "clean"
        };
        println!(
            "net-test ({name}): {} frames compared, hands p95 {:.1} mm from the client's one delay earlier, worst step {:.1} mm ({}); client upload {:.0} B/s (state stream {:.0} B/s, events {:.0} B/s, ENet overhead shared per packet); events {:?}",
            j.frames_compared,
            j.p95_m * 1000.0,
            j.worst_step_m * 1000.0,
            j.worst_step_at,
            j.upload_bytes_per_s,
            j.state_bytes_per_s,
            j.event_bytes_per_s,
            client.sent
        );
        let mut problems: Vec<String> = j.problems.clone();
        problems.extend(hostile_problems(&host));
        failures.extend(problems.iter().map(|p| format!("{name}: {p}")));
        events = client.sent.clone();
        judged.push((name, j, problems.len()));
    }
    if write {
        let runs: Vec<(&str, &Judged, usize)> =
            judged.iter().map(|(n, j, p)| (*n, j, *p)).collect();
        crate::write_doc_section(
            "docs/multiplayer.md",
            "# Multiplayer\n",
            "Figures",
            &figures_section(&runs, &events),
        )?;
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("net-test failed:\n  {}", failures.join("\n  ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: &str, head: &str, x: f64) -> String {
        format!("{kind} {head} {x} 1.0 0.0 {x} 1.2 0.0")
    }

    #[test]
    fn a_record_is_read_and_a_matching_view_passes() {
        let mut client = String::new();
        let mut host = String::new();
        for i in 0..1000 {
            let t = i as f64 / 100.0;
            client += &(line("L", &format!("{t}"), t * 0.01) + "\n");
            host += &(line("R", &format!("7 {t} interpolated"), t * 0.01 + 0.005) + "\n");
        }
        client += "S clock 10.0\nS state_bytes_sent 13500\nS event_bytes_sent 40\nS enet_sent_bytes 18000\nS enet_sent_packets 310\nS state_packets_sent 300\nS event_packets_sent 2\nE sent draw\nE sent fire\n";
        host +=
            "E played draw\nE played fire\nS remote_gun_shown_frames 90\nS remote_flash_frames 4\n";
        let (h, c) = (parse_record(&host), parse_record(&client));
        assert_eq!(c.local.len(), 1000);
        assert_eq!(h.remote["7"].len(), 1000);
        let j = judge(&h, &c);
        assert!(j.problems.is_empty(), "{:?}", j.problems);
        assert!((j.p95_m - 0.005).abs() < 1e-6);
        assert!((j.upload_bytes_per_s - 1800.0).abs() < 1e-6);
    }

    #[test]
    fn a_wrong_view_a_pop_and_lost_events_fail() {
        let mut client = String::new();
        let mut host = String::new();
        for i in 0..1000 {
            let t = i as f64 / 100.0;
            client += &(line("L", &format!("{t}"), 0.0) + "\n");
            let x = if i == 500 { 0.2 } else { 0.05 };
            host += &(line("R", &format!("7 {t} interpolated"), x) + "\n");
        }
        client += "S clock 10.0\nS enet_sent_bytes 30000\nE sent draw\nE sent fire\n";
        host += "E played fire\n";
        let j = judge(&parse_record(&host), &parse_record(&client));
        let all = j.problems.join(" | ");
        assert!(all.contains("95th percentile"), "{all}");
        assert!(all.contains("stepped"), "{all}");
        assert!(all.contains("events sent"), "{all}");
        assert!(all.contains("uploads 3000"), "{all}");
        assert!(all.contains("never showed it in the hand"), "{all}");
        assert!(all.contains("no muzzle flash"), "{all}");
    }

    fn judged(p95_m: f64, worst_step_m: f64, upload: f64) -> Judged {
        Judged {
            frames_compared: 1000,
            p95_m,
            worst_step_m,
            worst_step_at: String::new(),
            state_bytes_per_s: upload - 80.0,
            state_packet_bytes: 62.0,
            event_bytes_per_s: 10.0,
            upload_bytes_per_s: upload,
            problems: Vec::new(),
        }
    }

    #[test]
    fn the_figures_section_says_what_its_table_shows() {
        let events = ["draw".to_string(), "fire".to_string()];
        let (good, bad) = (judged(0.0067, 0.026, 1930.0), judged(0.0412, 0.21, 2100.0));
        let passed = figures_section(&[("clean", &good, 0), ("lossy", &good, 0)], &events);
        assert!(passed.contains("| clean | 6.7 mm | 26.0 mm | 1930 B/s | 1850 B/s | 10 B/s |"));
        assert!(
            passed.contains("within the 30 mm target in both runs"),
            "{passed}"
        );
        assert!(passed.contains("no shown hand stepped"));
        assert!(passed.contains("is under the 2 kB/s"));
        assert!(passed.contains("draw, fire, arrived once"));
        assert!(passed.contains("(62.0 bytes)"));
        assert!(passed.contains("| 60 Hz | 3720 B/s |"));
        assert!(
            passed.contains("| 8 | 8 x 7 = 56 | about 104 kB/s |"),
            "{passed}"
        );
        assert!(passed.contains("| 64 | 64 x 63 = 4032 | about 7.5 MB/s |"));
        let failed = figures_section(&[("clean", &good, 0), ("lossy", &bad, 2)], &events);
        assert!(failed.contains("| lossy | 41.2 mm | 210.0 mm | 2100 B/s"));
        assert!(failed.contains("**not** within"), "{failed}");
        assert!(failed.contains("**did** step"));
        assert!(failed.contains("is **over** the 2 kB/s"));
        assert!(failed.contains("**failed** a check"));
    }
}
