package mcpcassette

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
)

var (
	engineOnce sync.Once
	engineLine []string
	engineErr  error
)

// findEngine is MCP_CASSETTE_BIN (split on spaces) or mcp-cassette on PATH, checked once to be Version.
func findEngine() ([]string, error) {
	engineOnce.Do(func() {
		line, source := strings.Fields(os.Getenv(EngineEnv)), "from "+EngineEnv
		if len(line) == 0 {
			path, err := exec.LookPath("mcp-cassette")
			if err != nil {
				engineErr = fmt.Errorf("no mcp-cassette engine: set %s to the mcp-cassette binary or put mcp-cassette on PATH", EngineEnv)
				return
			}
			line, source = []string{path}, "mcp-cassette on PATH"
		}
		out, err := exec.Command(line[0], append(line[1:], "--version")...).Output()
		words := strings.Fields(string(out))
		if err != nil || len(words) < 2 || words[0] != "mcp-cassette" {
			engineErr = fmt.Errorf("the mcp-cassette engine %s (%s) does not answer --version (%v); set %s to the mcp-cassette binary", strings.Join(line, " "), source, err, EngineEnv)
			return
		}
		if words[1] != Version {
			engineErr = fmt.Errorf("mcpcassette %s needs mcp-cassette %s, but the engine %s (%s) is %s: install the matching versions, or point %s at mcp-cassette %s", Version, Version, strings.Join(line, " "), source, words[1], EngineEnv, Version)
			return
		}
		engineLine = line
	})
	return engineLine, engineErr
}
