//! A tiny reference server built with the official Rust SDK (rmcp), recorded
//! through `mcp-cassette record` and replayed to the TypeScript SDK client by
//! the interop suite. Runs over stdio. The tools are written out by hand
//! (no `#[tool]` macros) so the build needs no proc-macro crates.
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};

struct Interop;

fn schema(value: Value) -> Arc<Map<String, Value>> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("schemas here are objects"),
    }
}

fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "add",
            "Adds two integers.",
            schema(json!({
                "type": "object",
                "properties": { "a": { "type": "integer" }, "b": { "type": "integer" } },
                "required": ["a", "b"]
            })),
        ),
        Tool::new(
            "greet",
            "Greets someone by name.",
            schema(json!({
                "type": "object",
                "properties": { "name": { "type": "string" } },
                "required": ["name"]
            })),
        ),
    ]
}

impl ServerHandler for Interop {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("interop-rust-server", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let text = match request.name.as_ref() {
            "add" => {
                let a = args.get("a").and_then(Value::as_i64).unwrap_or(0);
                let b = args.get("b").and_then(Value::as_i64).unwrap_or(0);
                format!("{a} + {b} = {}", a + b)
            }
            "greet" => {
                let name = args.get("name").and_then(Value::as_str).unwrap_or("");
                format!("Hello, {name}!")
            }
            other => {
                return Err(ErrorData::invalid_params(format!("unknown tool: {other}"), None))
            }
        };
        Ok(CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text(text)])))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let running = Interop.serve(rmcp::transport::stdio()).await.expect("serve over stdio");
    let _ = running.waiting().await;
}
