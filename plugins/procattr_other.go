//go:build !linux

package plugins

import "os/exec"

// setProcAttr does nothing here: plugins written with the SDK notice by
// themselves that their host has gone.
func setProcAttr(*exec.Cmd) {}

// killGroup kills the plugin process alone.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
