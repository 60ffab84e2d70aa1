// Package mcpcassette records an MCP server once and replays it in every test
// run after, by driving the mcp-cassette engine's record and replay commands.
//
//	c := mcpcassette.Start(t, mcpcassette.Options{Server: []string{"./my-server"}})
//	transport := &mcp.CommandTransport{Command: exec.Command(c.Command, c.Args...)}
//
// The record mode is MCP_CASSETTE_MODE, else Options.Mode, else "once". On
// t.Cleanup the test fails with replay's own message on a miss.
package mcpcassette

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Version is the engine version this package drives; the engine must match it.
const Version = "0.1.0"

// EngineEnv names the engine to use (a path, or a command line); else mcp-cassette on PATH.
const EngineEnv = "MCP_CASSETTE_BIN"

// Options of Start; each field past Mode is one engine option.
type Options struct {
	// Path of the cassette; default testdata/cassettes/<test name>.cassette.jsonl.
	Path string
	// Mode is once (default), none, all or new_episodes; MCP_CASSETTE_MODE wins.
	Mode string
	// Server is the live server's command line (stdio), needed whenever the mode records.
	Server []string
	// URL is the live server's Streamable HTTP URL: Start then gives a local URL instead of a command.
	URL string
	// Lenient is replay --lenient; Strict is replay --strict.
	Lenient, Strict bool
	// MatchIgnore is replay --match-ignore.
	MatchIgnore []string
	// Faults is replay --faults.
	Faults string
	// Redact is --redact of record and replay.
	Redact []string
	// FailOnUnplayed also fails the test when recorded requests were never asked for.
	FailOnUnplayed bool
}

// Cassette is what Start set up: Command and Args for a stdio client, URL for an HTTP one.
type Cassette struct {
	Path    string
	Mode    string
	Action  string // record, replay or replay-append
	Command string
	Args    []string
	URL     string

	opts    Options
	work    string
	runLog  string
	http    *background
	once    sync.Once
	result  *Result
	failure error
}

var modes = []string{"once", "none", "all", "new_episodes"}

func resolveMode(given string) (string, error) {
	value, source := given, "Options.Mode"
	if env := os.Getenv("MCP_CASSETTE_MODE"); env != "" {
		value, source = env, "the MCP_CASSETTE_MODE environment variable"
	}
	if value == "" {
		return "once", nil
	}
	normal := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(value)), "-", "_")
	for _, mode := range modes {
		if mode == normal {
			return mode, nil
		}
	}
	return "", fmt.Errorf("unknown record mode %q from %s (expected one of %s)", value, source, strings.Join(modes, ", "))
}

func actionFor(mode string, exists bool, path string) (string, error) {
	switch {
	case mode == "all":
		return "record", nil
	case exists && mode == "new_episodes":
		return "replay-append", nil
	case exists:
		return "replay", nil
	case mode == "none":
		return "", fmt.Errorf("the cassette %s does not exist and record mode \"none\" forbids recording it (record it locally with mode \"once\", or commit it)", path)
	}
	return "record", nil
}

// DefaultPath is testdata/cassettes/<test name>.cassette.jsonl, the name made safe for a file.
func DefaultPath(t testing.TB) string {
	name := regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(t.Name(), "-")
	return filepath.Join("testdata", "cassettes", name+".cassette.jsonl")
}

// Start records or replays the cassette for t, as the mode decides, and
// registers the check: on t.Cleanup the test fails on a miss (or an inexact
// answer unless Lenient), with replay's message. Bad options fail t at once.
func Start(t testing.TB, opts Options) *Cassette {
	t.Helper()
	c, err := start(t, opts)
	if err != nil {
		t.Fatalf("mcpcassette: %v", err)
	}
	t.Cleanup(func() {
		if _, err := c.finish(t.Failed()); err != nil && !t.Failed() {
			t.Errorf("mcp-cassette: %v", err)
		}
	})
	return c
}

func start(t testing.TB, opts Options) (*Cassette, error) {
	mode, err := resolveMode(opts.Mode)
	if err != nil {
		return nil, err
	}
	path := opts.Path
	if path == "" {
		path = DefaultPath(t)
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, err
	}
	info, statErr := os.Stat(path)
	if statErr == nil && info.IsDir() {
		return nil, fmt.Errorf("the cassette %s is a directory", path)
	}
	action, err := actionFor(mode, statErr == nil, path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + ".claim"); err == nil && action == "replay" && mode == "once" {
		action = "record" // still being written: the recorder waits for it, then replays
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	engine, err := findEngine()
	if err != nil {
		return nil, err
	}
	c := &Cassette{Path: path, Mode: mode, Action: action, opts: opts, work: t.TempDir()}
	c.runLog = filepath.Join(c.work, "run.jsonl")
	if opts.URL != "" {
		return c, c.startHTTP(engine)
	}
	if action != "replay" && len(opts.Server) == 0 {
		return nil, fmt.Errorf("record mode %q needs Options.Server to write %s", mode, path)
	}
	line := append(append([]string{}, engine...), c.launchArgs()...)
	c.Command, c.Args = line[0], line[1:]
	return c, nil
}

func (c *Cassette) flags(command string) []string {
	var out []string
	if command == "replay" {
		if c.opts.Lenient {
			out = append(out, "--lenient")
		}
		if c.opts.Strict {
			out = append(out, "--strict")
		}
		for _, path := range c.opts.MatchIgnore {
			out = append(out, "--match-ignore", path)
		}
		if c.opts.Faults != "" {
			faults, _ := filepath.Abs(c.opts.Faults)
			out = append(out, "--faults", faults)
		}
	}
	for _, rule := range c.opts.Redact {
		out = append(out, "--redact", rule)
	}
	return out
}

func (c *Cassette) launchArgs() []string {
	group := fmt.Sprintf("%d-%s", os.Getpid(), filepath.Base(c.work))
	switch c.Action {
	case "record":
		args := []string{"record", "-o", c.Path, "--mode", c.Mode, "--group", group, "--run-log", c.runLog}
		return append(append(append(args, c.flags("record")...), "--"), c.opts.Server...)
	case "replay-append":
		args := []string{"replay", c.Path, "--new-episodes", "--group", group, "--run-log", c.runLog}
		return append(append(append(args, c.flags("replay")...), "--"), c.opts.Server...)
	}
	return append([]string{"replay", c.Path, "--run-log", c.runLog}, c.flags("replay")...)
}

// Finish waits for the session to end and sums it up; it returns the failure
// Cleanup would report. Close the client first. Cleanup calls it too.
func (c *Cassette) Finish() (*Result, error) { return c.finish(false) }

func (c *Cassette) finish(failed bool) (*Result, error) {
	c.once.Do(func() { c.result, c.failure = c.collect(failed) })
	return c.result, c.failure
}
