//go:build !linux

package mcpcassette

import "os/exec"

// dieWithParent has no portable form off Linux: Cleanup ends the engine instead.
func dieWithParent(cmd *exec.Cmd) {}
