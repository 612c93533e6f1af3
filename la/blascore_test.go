package la

import (
	"strings"
	"testing"
)

func TestBLASCore(t *testing.T) {
	core, config := BLASCore(), BLASConfig()
	if (Backend == "openblas") != (core != "") {
		t.Errorf("backend %s reports core %q", Backend, core)
	}
	if Backend == "openblas" && !strings.HasPrefix(config, "OpenBLAS ") {
		t.Errorf("config %q does not start with OpenBLAS", config)
	}
	// A DYNAMIC_ARCH build names the kernels it picked at load time.
	if strings.Contains(config, "DYNAMIC_ARCH") && !strings.Contains(config, core) {
		t.Errorf("config %q does not name the core %q", config, core)
	}
	if Backend != "openblas" && config != "" {
		t.Errorf("backend %s reports config %q", Backend, config)
	}
}
