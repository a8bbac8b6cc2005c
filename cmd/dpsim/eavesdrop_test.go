package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const smallDPP2 = `{"name":"dpp2-small","seed":5,"graph":{"kind":"ring","n":5},"weights":{"kind":"normalized-laplacian"},
 "problem":{"kind":"nonconvex-classifier","params":{"samples":10,"dim":2,"scale":2}},
 "algorithm":{"kind":"dpp2"},
 "noise":{"w":{"dist":"laplace","scale":0.5,"decay":{"kind":"geometric","c":1,"r":0.9}},
          "e":{"dist":"laplace","scale":0.5,"decay":{"kind":"geometric","c":1,"r":0.9}}},
 "iterations":30}`

// TestRunEavesdrop checks --eavesdrop: the view of agent 2's links, every
// 10th iteration plus 0 and 1, with DPP²'s exact reconstruction; and the
// refusals of a bad agent and of the flags without --eavesdrop.
func TestRunEavesdrop(t *testing.T) {
	dir := t.TempDir()
	spy := filepath.Join(dir, "spy.json")
	code, _, errs := dpsim(t, smallDPP2, "run", "--quiet", "--out", filepath.Join(dir, "run.json"),
		"--eavesdrop", spy, "--eavesdrop-agent", "2", "--eavesdrop-every", "10", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	raw, err := os.ReadFile(spy)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Format  string
		Agent   int
		Inverts bool
		Frames  []struct {
			Iteration    int
			ResidualX    float64 `json:"residual_x"`
			ResidualGrad float64 `json:"residual_grad"`
			Sent         []struct{ Channel string }
			Received     []struct{ From int }
		}
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Format != "dpsim-eavesdrop/1" || rep.Agent != 2 || !rep.Inverts || len(rep.Frames) != 4 {
		t.Fatalf("report %s, agent %d, inverts %v, %d frames (want 4: iterations 0, 1, 10, 20)", rep.Format, rep.Agent, rep.Inverts, len(rep.Frames))
	}
	for _, f := range rep.Frames {
		if f.ResidualX > 1e-12 || f.ResidualGrad > 1e-12 || len(f.Sent) != 2 || len(f.Received) != 4 {
			t.Errorf("iteration %d: residuals %g, %g; %d sent, %d received", f.Iteration, f.ResidualX, f.ResidualGrad, len(f.Sent), len(f.Received))
		}
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--eavesdrop", filepath.Join(dir, "x.json"), "--eavesdrop-agent", "5"}, "--eavesdrop-agent must be from 0 to 4"},
		{[]string{"--eavesdrop-agent", "1"}, "need --eavesdrop FILE"},
		{[]string{"--eavesdrop", filepath.Join(dir, "y.json"), "--eavesdrop-every", "0"}, "eavesdrop-every"},
	} {
		args := append([]string{"run", "--quiet", "--out", filepath.Join(dir, "z.json")}, bad.args...)
		code, _, errs := dpsim(t, smallDPP2, append(args, "-")...)
		if code == 0 || !strings.Contains(errs, bad.want) {
			t.Errorf("%v: exit %d, %q; want an error saying %q", bad.args, code, errs, bad.want)
		}
	}
}
