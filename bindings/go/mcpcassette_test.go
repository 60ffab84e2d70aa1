package mcpcassette

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary is also the live server: `<test binary> serve-weather` serves over stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve-weather" {
		_ = weather().Run(context.Background(), &mcp.StdioTransport{})
		return
	}
	os.Exit(m.Run())
}

type forecastArgs struct {
	City string `json:"city"`
}

// weather is a Go SDK server with one tool; each call appends a line to $WEATHER_CALLS.
func weather() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "forecast", Description: "Tomorrow's weather"},
		func(ctx context.Context, req *mcp.CallToolRequest, args forecastArgs) (*mcp.CallToolResult, any, error) {
			if calls := os.Getenv("WEATHER_CALLS"); calls != "" {
				file, _ := os.OpenFile(calls, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				fmt.Fprintln(file, args.City)
				file.Close()
			}
			answer := map[string]string{"Paris": "sunny", "Oslo": "snow"}[args.City]
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: answer}}}, nil, nil
		})
	return server
}

func serverCommand(t *testing.T) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "serve-weather"}
}

// ask connects the Go SDK client to transport and calls forecast for city.
func ask(t *testing.T, transport mcp.Transport, city string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	// 2025-11-25, not the SDK's default probe of server/discover: a Go SDK server answers the probe
	// without 2026-07-28, and the HTTP recorder then marks the cassette as of the stateless era.
	session, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return "", err
	}
	defer session.Close()
	result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "forecast", Arguments: map[string]any{"city": city}})
	if err != nil {
		return "", err
	}
	if result.IsError {
		return "", fmt.Errorf("tool error: %v", result.Content)
	}
	return result.Content[0].(*mcp.TextContent).Text, nil
}

func stdio(c *Cassette) mcp.Transport {
	return &mcp.CommandTransport{Command: exec.Command(c.Command, c.Args...)}
}

// fakeT stands in for the test a helper is given, to see what Cleanup reports.
type fakeT struct {
	testing.TB
	cleanups []func()
	errors   []string
	dir      string
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Name() string      { return "TestFake" }
func (f *fakeT) TempDir() string   { return f.dir }
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeT) Failed() bool      { return false }
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
	panic(f)
}

// run plays one test with fakeT and returns what Cleanup (or Start) reported.
func run(t *testing.T, opts Options, body func(*Cassette)) (errs []string) {
	f := &fakeT{TB: t, dir: t.TempDir()}
	defer func() {
		if recovered := recover(); recovered != nil && recovered != f {
			panic(recovered)
		}
		errs = f.errors
	}()
	c := Start(f, opts)
	body(c)
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	return f.errors
}

func countCalls(t *testing.T, file string) int {
	raw, _ := os.ReadFile(file)
	return strings.Count(string(raw), "\n")
}

func TestStdioRecordsThenReplaysAndFailsOnAMiss(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls.txt")
	t.Setenv("WEATHER_CALLS", calls)
	opts := Options{Path: filepath.Join(dir, "weather.cassette.jsonl"), Server: serverCommand(t)}
	for round, want := range []string{"record", "replay"} {
		errs := run(t, opts, func(c *Cassette) {
			if c.Action != want {
				t.Errorf("round %d: action %s, want %s", round, c.Action, want)
			}
			if answer, err := ask(t, stdio(c), "Paris"); err != nil || answer != "sunny" {
				t.Errorf("round %d: %q, %v", round, answer, err)
			}
		})
		if len(errs) > 0 {
			t.Fatalf("round %d: %v", round, errs)
		}
	}
	if got := countCalls(t, calls); got != 1 {
		t.Fatalf("the live server was called %d times, want 1 (the replay reached it?)", got)
	}
	var result *Result
	errs := run(t, Options{Path: opts.Path, Mode: "none"}, func(c *Cassette) {
		_, _ = ask(t, stdio(c), "Oslo")
		result, _ = c.Finish()
	})
	if len(errs) != 1 || !strings.Contains(errs[0], "missed 1 request(s)") || !strings.Contains(errs[0], "params.arguments.city") {
		t.Fatalf("a miss should fail the test with replay's message, got %q", errs)
	}
	// The whole report reaches the test, fields this module does not name included (the journal).
	if len(result.Misses) != 1 || result.Report() == nil || result.Report()["journal"] == nil {
		t.Fatalf("result: %+v", result)
	}
}

func TestHTTPRecordsThenReplaysWithoutTheServer(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls.txt")
	t.Setenv("WEATHER_CALLS", calls)
	live := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return weather() }, nil))
	path := filepath.Join(dir, "web.cassette.jsonl")
	for round, url := range []string{live.URL, "http://127.0.0.1:9/mcp"} {
		errs := run(t, Options{Path: path, URL: url}, func(c *Cassette) {
			if answer, err := ask(t, &mcp.StreamableClientTransport{Endpoint: c.URL}, "Paris"); err != nil || answer != "sunny" {
				t.Errorf("round %d: %q, %v", round, answer, err)
			}
		})
		if len(errs) > 0 {
			t.Fatalf("round %d: %v", round, errs)
		}
		live.Close()
	}
	if got := countCalls(t, calls); got != 1 {
		t.Fatalf("the live server was called %d times, want 1", got)
	}
}

func TestBadInputIsOneLine(t *testing.T) {
	dir := t.TempDir()
	errs := run(t, Options{Path: filepath.Join(dir, "x.jsonl"), Mode: "sometimes"}, func(*Cassette) {})
	if len(errs) != 1 || !strings.Contains(errs[0], `unknown record mode "sometimes" from Options.Mode`) {
		t.Fatalf("unknown mode: %q", errs)
	}
	errs = run(t, Options{Path: filepath.Join(dir, "missing.jsonl"), Mode: "none"}, func(*Cassette) {})
	if len(errs) != 1 || !strings.Contains(errs[0], `record mode "none" forbids recording it`) {
		t.Fatalf("mode none with no cassette: %q", errs)
	}
}
