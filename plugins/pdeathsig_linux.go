package plugins

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal has Linux kill the plugin when the host dies, even
// by SIGKILL, whatever language the plugin is written in.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
