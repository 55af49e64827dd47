//! The commands that serve or simulate: `run` (the daemon on its config), `simulate` (tables on pseudo-terminals), and the `ports` listing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use goban_hardware::sim::{FaultScript, HumanProfile, SimTable, SimulateOptions, Transport};
use tokio_util::sync::CancellationToken;

use crate::app::{self, Endpoints};
use crate::config::Config;

/// `goban-bridge ports`.
pub(super) fn ports() -> ExitCode {
    match goban_hardware::list_ports() {
        Ok(ports) if ports.is_empty() => {
            println!("no serial ports found");
            ExitCode::SUCCESS
        }
        Ok(ports) => {
            for port in ports {
                let usb = match (port.vid, port.pid) {
                    (Some(vid), Some(pid)) => format!("usb {vid:04x}:{pid:04x}"),
                    _ => format!("{:?}", port.kind),
                };
                let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
                println!(
                    "{}\t{usb}\tserial={}\t{} {}",
                    port.path.display(),
                    text(&port.serial_number),
                    text(&port.manufacturer),
                    text(&port.product)
                );
                for link in port.by_id {
                    println!("  {}", link.display());
                }
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("goban-bridge: cannot list serial ports: {err}");
            ExitCode::FAILURE
        }
    }
}

pub(super) fn read_script(path: &Path) -> anyhow::Result<FaultScript> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(FaultScript::from_json(&text, &path.display().to_string())?)
}

pub(super) fn sim_options(
    boards: usize,
    speed: f64,
    script: FaultScript,
    seed: u64,
    shared: bool,
    dir: PathBuf,
) -> SimulateOptions {
    SimulateOptions {
        boards,
        profile: HumanProfile {
            speed,
            ..HumanProfile::default()
        },
        script,
        seed,
        shared_port: shared,
        diffs: true,
        transport: Transport::Pty(dir),
    }
}

/// `goban-bridge run`: the daemon as `config` describes it, until a signal.
pub(super) async fn serve_until_signal(config: Config) -> anyhow::Result<()> {
    let daemon = app::start(config).await?;
    print_endpoints(&daemon.endpoints);
    app::shutdown_signal().await;
    daemon.stop().await;
    Ok(())
}

/// What a started daemon prints: where each of its services answers.
pub(super) fn print_endpoints(endpoints: &Endpoints) {
    let http = endpoints.http;
    println!("goban-bridge is running");
    println!("  hall:         http://{http}/");
    println!("  viewer:       http://{http}/board/<board>   (OBS overlay: /overlay/<board>)");
    println!("  arbiter:      http://{http}/arbiter");
    println!("  API docs:     http://{http}/api/docs/");
    println!("  REST API:     http://{http}/api/v1/boards");
    println!("  SSE stream:   http://{http}/api/v1/boards/<board>/events");
    println!("  OpenAPI:      http://{http}/api/v1/openapi.json");
    println!("  metrics:      http://{http}/metrics");
    let kind = if endpoints.embedded_broker {
        "embedded MQTT broker"
    } else {
        "MQTT broker"
    };
    println!(
        "  {kind}: {}:{} (port {})",
        endpoints.mqtt.0, endpoints.mqtt.1, endpoints.mqtt.1
    );
}

/// `goban-bridge simulate`: tables on pseudo-terminals until a signal.
pub(super) async fn simulate(games: &Path, options: &SimulateOptions) -> anyhow::Result<()> {
    let cancel = CancellationToken::new();
    let tables = goban_hardware::sim::simulate(games, options, &cancel)?;
    print_tables(&tables);
    app::shutdown_signal().await;
    cancel.cancel();
    Ok(())
}

fn print_tables(tables: &[SimTable]) {
    for table in tables {
        let paths: Vec<String> = table
            .paths()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        println!("{}\t{}\t{}", table.name, table.game, paths.join("\t"));
    }
}
