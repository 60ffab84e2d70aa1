//! Runs the interop session (tests/interop/session.json) with the official Rust
//! SDK's client (rmcp) and prints what it got back as one JSON document, in the
//! shape check.ts reads.
//!
//! Usage:
//!   rust-client --session FILE [--era auto|legacy|modern] (--url URL | -- <server command...>)
//!
//! `--era auto` (the default) is the SDK's own probe: `server/discover` first,
//! `initialize` when the server answers it with a legacy error. `legacy` sends
//! only `initialize`; `modern` sends only `server/discover` and fails on a
//! legacy server. Every step goes through the SDK's typed methods, so what is
//! exercised is rmcp's decoding of the replayed answers.
use std::process::exit;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, GetPromptRequestParams,
    Implementation, ProtocolVersion, ReadResourceRequestParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceError};
use serde_json::{json, Map, Value};

/// The pinned rmcp version (Cargo.toml says `=3.11.0`).
const RMCP_VERSION: &str = "3.11.0";

struct Interop;

impl ClientHandler for Interop {
    fn get_info(&self) -> ClientConfig {
        // The legacy handshake must name a revision that still has one.
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("interop-rust-client", "1.0.0"),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

struct Args {
    session: String,
    era: String,
    url: Option<String>,
    command: Vec<String>,
}

fn usage() -> ! {
    eprintln!(
        "usage: rust-client --session FILE [--era auto|legacy|modern] (--url URL | -- <server command...>)"
    );
    exit(2)
}

fn parse_args() -> Args {
    let mut args = Args { session: String::new(), era: "auto".into(), url: None, command: vec![] };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--session" => args.session = it.next().unwrap_or_else(|| usage()),
            "--era" => args.era = it.next().unwrap_or_else(|| usage()),
            "--url" => args.url = Some(it.next().unwrap_or_else(|| usage())),
            "--" => {
                args.command = it.by_ref().collect();
            }
            _ => usage(),
        }
    }
    if args.session.is_empty() || (args.url.is_none() && args.command.is_empty()) {
        usage();
    }
    args
}

fn lifecycle(era: &str) -> ClientLifecycleMode {
    let modern = vec![ProtocolVersion::V_2026_07_28];
    match era {
        "legacy" => ClientLifecycleMode::Initialize,
        "modern" => ClientLifecycleMode::Discover { preferred_versions: modern },
        "auto" => ClientLifecycleMode::Auto {
            preferred_versions: modern,
            legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
        },
        _ => usage(),
    }
}

fn failure(error: ServiceError) -> Value {
    match error {
        ServiceError::McpError(data) => {
            json!({ "error": { "code": data.code.0, "message": data.message } })
        }
        other => json!({ "error": { "code": Value::Null, "message": other.to_string() } }),
    }
}

fn outcome<T: serde::Serialize>(result: Result<T, ServiceError>) -> Value {
    match result {
        Ok(value) => json!({ "result": serde_json::to_value(value).expect("results serialise") }),
        Err(error) => failure(error),
    }
}

async fn run_step(client: &RunningService<RoleClient, Interop>, step: &Value) -> Value {
    let method = step["method"].as_str().unwrap_or_default();
    let params = step.get("params").cloned().unwrap_or_else(|| json!({}));
    let name = params["name"].as_str().unwrap_or_default().to_owned();
    let arguments: Option<Map<String, Value>> = params["arguments"].as_object().cloned();
    match method {
        "tools/list" => outcome(client.list_tools(None).await),
        "resources/list" => outcome(client.list_resources(None).await),
        "prompts/list" => outcome(client.list_prompts(None).await),
        "tools/call" => {
            let mut call = CallToolRequestParams::new(name);
            if let Some(arguments) = arguments {
                call = call.with_arguments(arguments);
            }
            outcome(client.call_tool(call).await)
        }
        "resources/read" => {
            let uri = params["uri"].as_str().unwrap_or_default().to_owned();
            outcome(client.read_resource(ReadResourceRequestParams::new(uri)).await)
        }
        "prompts/get" => {
            let mut get = GetPromptRequestParams::new(name);
            if let Some(arguments) = arguments {
                get = get.with_arguments(arguments);
            }
            outcome(client.get_prompt(get).await)
        }
        other => json!({ "error": { "code": Value::Null, "message": format!("client does not know {other}") } }),
    }
}

async fn connect(args: &Args) -> Result<RunningService<RoleClient, Interop>, String> {
    let mode = lifecycle(&args.era);
    let started = match &args.url {
        Some(url) => {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            Interop.serve_with_lifecycle(transport, mode).await
        }
        None => {
            let mut command = tokio::process::Command::new(&args.command[0]);
            command.args(&args.command[1..]);
            let transport = TokioChildProcess::new(command).map_err(|e| format!("spawn: {e}"))?;
            Interop.serve_with_lifecycle(transport, mode).await
        }
    };
    started.map_err(|e| format!("connect: {e}"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = parse_args();
    let spec: Value = match std::fs::read_to_string(&args.session) {
        Ok(text) => serde_json::from_str(&text).expect("the session file is JSON"),
        Err(error) => {
            eprintln!("client: {}: {error}", args.session);
            exit(1)
        }
    };
    let client = match connect(&args).await {
        Ok(client) => client,
        Err(error) => {
            eprintln!("client: {error}");
            exit(1)
        }
    };
    let info = client.peer_info();
    let version = info.as_ref().map(|i| i.protocol_version.to_string()).unwrap_or_default();
    let era = if version.as_str() >= "2026-07-28" { "modern" } else { "legacy" };
    let mut steps = Map::new();
    for step in spec["steps"].as_array().into_iter().flatten() {
        let name = step["name"].as_str().unwrap_or_default().to_owned();
        steps.insert(name, run_step(&client, step).await);
    }
    let out = json!({
        "sdk": format!("rust rmcp {RMCP_VERSION}"),
        "transport": if args.url.is_some() { "http" } else { "stdio" },
        "era": era,
        "initialize": {
            "serverInfo": info.as_ref().and_then(|i| i.server_info.clone()),
            "protocolVersion": version,
        },
        "steps": steps,
    });
    println!("{}", serde_json::to_string_pretty(&out).expect("output serialises"));
    let _ = client.cancel().await;
}
