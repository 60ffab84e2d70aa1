package mcpcassette

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// background is an engine process Start ran itself: the HTTP recorder or replay.
type background struct {
	cmd    *exec.Cmd
	report string
	mu     sync.Mutex
	stderr []string
	done   chan struct{}
}

var (
	recording = regexp.MustCompile(`point the client at (\S+)`)
	replaying = regexp.MustCompile(`replaying .* at (\S+)$`)
)

func (c *Cassette) startHTTP(engine []string) error {
	if c.Action == "replay-append" {
		return errors.New(`record mode "new_episodes" works over stdio only (Options.Server)`)
	}
	listen := []string{"--listen", "127.0.0.1:0"}
	if c.Action == "record" {
		args := append([]string{"record", "-o", c.Path, "--url", c.opts.URL}, listen...)
		return c.runBackground(engine, append(args, c.flags("record")...), recording, "")
	}
	report := filepath.Join(c.work, "report.json")
	args := append(append([]string{"replay", c.Path}, listen...), "--report", report)
	return c.runBackground(engine, append(args, c.flags("replay")...), replaying, report)
}

func (c *Cassette) runBackground(engine, args []string, ready *regexp.Regexp, report string) error {
	cmd := exec.Command(engine[0], append(engine[1:], args...)...)
	dieWithParent(cmd)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	b := &background{cmd: cmd, report: report, done: make(chan struct{})}
	url := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(pipe)
		for scanner.Scan() {
			line := strings.TrimSpace(scanner.Text())
			b.mu.Lock()
			b.stderr = append(b.stderr, line)
			b.mu.Unlock()
			if found := ready.FindStringSubmatch(line); found != nil {
				select {
				case url <- found[1]:
				default:
				}
			}
		}
		_ = cmd.Wait()
		close(b.done)
	}()
	select {
	case c.URL = <-url:
		c.http = b
		return nil
	case <-b.done:
		return fmt.Errorf("%s %s did not start: %s", engine[0], args[0], b.lastError())
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		return fmt.Errorf("%s %s did not start within 60 s", engine[0], args[0])
	}
}

func (b *background) lastError() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.stderr) - 1; i >= 0; i-- {
		if b.stderr[i] != "" {
			return strings.TrimPrefix(b.stderr[i], "mcp-cassette: ")
		}
	}
	return "no output"
}

func (b *background) stop(result *Result) error {
	_ = b.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-b.done:
	case <-time.After(30 * time.Second):
		_ = b.cmd.Process.Kill()
		<-b.done
	}
	code := b.cmd.ProcessState.ExitCode()
	launch := map[string]any{"code": code}
	result.Launches = append(result.Launches, launch)
	if b.report == "" {
		launch["action"] = "record"
		if code != 0 && code != -1 && code != 143 {
			return errors.New(b.lastError())
		}
		return nil
	}
	launch["action"] = "replay"
	raw, err := os.ReadFile(b.report)
	var report map[string]any
	if err != nil || json.Unmarshal(raw, &report) != nil {
		return fmt.Errorf("the HTTP replay wrote no report: %s", b.lastError())
	}
	result.addReport(report)
	return nil
}
