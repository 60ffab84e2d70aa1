// Command server is a tiny reference server built with the official Go SDK,
// recorded through `mcp-cassette record` and replayed to the TypeScript SDK
// client by the interop suite. Runs over stdio.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addInput struct {
	A int `json:"a" jsonschema:"the first addend"`
	B int `json:"b" jsonschema:"the second addend"`
}

type greetInput struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "interop-go-server", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "add", Description: "Adds two integers."},
		func(_ context.Context, _ *mcp.CallToolRequest, in addInput) (*mcp.CallToolResult, any, error) {
			text := fmt.Sprintf("%d + %d = %d", in.A, in.B, in.A+in.B)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Greets someone by name."},
		func(_ context.Context, _ *mcp.CallToolRequest, in greetInput) (*mcp.CallToolResult, any, error) {
			text := "Hello, " + in.Name + "!"
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
