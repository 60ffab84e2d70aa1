package mcpcassette

import (
	"os/exec"
	"syscall"
)

// dieWithParent: the engine gets SIGTERM if the test binary dies, so a crash leaves none behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
