package plugins

import (
	"os/exec"
	"syscall"
)

// setProcAttr has Linux kill the plugin when the host dies, even by
// SIGKILL, whatever language the plugin is written in, and starts it in a
// process group of its own, which killGroup ends whole.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// killGroup kills the plugin's process group: the plugin, and what it
// started (a wrapper script's interpreter, which holds the plugin's
// output open while it runs), whether or not it can still answer.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
