// Command client runs the interop session (tests/interop/session.json) with
// the official Go SDK and prints what it got back as one JSON document.
//
// Usage:
//
//	client -session FILE [-protocol VERSION] (-url URL | -- <server command...>)
//
// Every step goes through the SDK's typed ClientSession methods, so what is
// exercised is the SDK's decoding of the replayed answers.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type step struct {
	Name   string          `json:"name"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type callParams struct {
	Name      string         `json:"name"`
	URI       string         `json:"uri"`
	Arguments map[string]any `json:"arguments"`
}

func main() {
	sessionFile := flag.String("session", "", "the session spec (session.json)")
	url := flag.String("url", "", "Streamable HTTP endpoint (instead of a command)")
	protocol := flag.String("protocol", "2025-11-25", "protocol version the client opens with; 2026-07-28 probes server/discover first")
	flag.Parse()
	if err := run(*sessionFile, *url, *protocol, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

func run(sessionFile, url, protocol string, command []string) error {
	raw, err := os.ReadFile(sessionFile)
	if err != nil {
		return err
	}
	var spec struct {
		Steps []step `json:"steps"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var transport mcp.Transport
	name := "stdio"
	if url != "" {
		transport = &mcp.StreamableClientTransport{Endpoint: url}
		name = "http"
	} else {
		if len(command) == 0 {
			return errors.New("give -url URL or -- <server command>")
		}
		cmd := exec.Command(command[0], command[1:]...)
		cmd.Stderr = os.Stderr
		transport = &mcp.CommandTransport{Command: cmd}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-go-client", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer session.Close()

	init := session.InitializeResult()
	era := "legacy"
	if init.ProtocolVersion >= "2026-07-28" {
		era = "modern"
	}
	out := map[string]any{
		"sdk":       "go github.com/modelcontextprotocol/go-sdk " + sdkVersion(),
		"transport": name,
		"era":       era,
		"initialize": map[string]any{
			"serverInfo":      init.ServerInfo,
			"protocolVersion": init.ProtocolVersion,
		},
	}
	results := map[string]any{}
	for _, s := range spec.Steps {
		results[s.Name] = runStep(ctx, session, s)
	}
	out["steps"] = results
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetIndent("", "  ")
	return encoder.Encode(out)
}

func runStep(ctx context.Context, session *mcp.ClientSession, s step) map[string]any {
	var p callParams
	if len(s.Params) > 0 {
		if err := json.Unmarshal(s.Params, &p); err != nil {
			return failure(err)
		}
	}
	var result any
	var err error
	switch s.Method {
	case "tools/list":
		result, err = session.ListTools(ctx, nil)
	case "resources/list":
		result, err = session.ListResources(ctx, nil)
	case "prompts/list":
		result, err = session.ListPrompts(ctx, nil)
	case "tools/call":
		result, err = session.CallTool(ctx, &mcp.CallToolParams{Name: p.Name, Arguments: p.Arguments})
	case "resources/read":
		result, err = session.ReadResource(ctx, &mcp.ReadResourceParams{URI: p.URI})
	case "prompts/get":
		args := map[string]string{}
		for key, value := range p.Arguments {
			args[key] = fmt.Sprint(value)
		}
		params := &mcp.GetPromptParams{Name: p.Name}
		if len(args) > 0 {
			params.Arguments = args
		}
		result, err = session.GetPrompt(ctx, params)
	default:
		err = fmt.Errorf("client does not know %s", s.Method)
	}
	if err != nil {
		return failure(err)
	}
	return map[string]any{"result": result}
}

// failure is how a step that raised reports: the JSON-RPC code and message
// when the server answered with an error, else code null.
func failure(err error) map[string]any {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		return map[string]any{"error": map[string]any{"code": wire.Code, "message": wire.Message}}
	}
	return map[string]any{"error": map[string]any{"code": nil, "message": err.Error()}}
}

func sdkVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/modelcontextprotocol/go-sdk" {
			return dep.Version
		}
	}
	return "unknown"
}
