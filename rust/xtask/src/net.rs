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
    pub state_bytes_per_s: f64,
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
    let mut last: Option<Frame> = None;
    for (frame, playback) in &shown {
        if let Some(prev) = last {
            let own = (
                local_at(&client.local, prev.time),
                local_at(&client.local, frame.time),
            );
            for h in 0..2 {
                let sender_step = match own {
                    (Some(a), Some(b)) => dist(a[h], b[h]),
                    _ => 0.0,
                };
                worst_step = worst_step.max(dist(frame.hands[h], prev.hands[h]) - sender_step);
            }
        }
        last = Some(*frame);
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
            "a remote hand stepped {worst_step:.4} m between frames (at most 0.05)"
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
        state_bytes_per_s: state_per_s,
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

/// `cargo xtask net-test`.
pub fn run_net_test() -> Result<(), String> {
    let godot = prepare("demo_project")?;
    let dir = repo_root().join("target/net-test");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    for impaired in [false, true] {
        let (host, client) = session(&godot, &dir, impaired)?;
        let j = judge(&host, &client);
        let name = if impaired {
            "10 % loss, up to 50 ms extra delay"
        } else {
            "clean"
        };
        println!(
            "net-test ({name}): {} frames compared, hands p95 {:.1} mm from the client's one delay earlier, worst step {:.1} mm; client upload {:.0} B/s (state stream {:.0} B/s, events {:.0} B/s, ENet overhead shared per packet); events {:?}",
            j.frames_compared,
            j.p95_m * 1000.0,
            j.worst_step_m * 1000.0,
            j.upload_bytes_per_s,
            j.state_bytes_per_s,
            j.event_bytes_per_s,
            client.sent
        );
        failures.extend(j.problems.iter().map(|p| format!("{name}: {p}")));
        failures.extend(
            hostile_problems(&host)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
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
        host += "E played draw\nE played fire\n";
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
    }
}
