package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"dpsim/core/attack"
	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/jsonout"
)

const attackHelp = `Usage: dpsim attack [--dataset NAME] [--target I] [--epsilon E] [--alpha A] [--plf P] [--steps S] [--seed N] [--out FILE.json] [--pgm PREFIX]

The gradient-leakage attack on DP-RECAL's baton (the paper's Sec. VII-B):
eight agents on a ring each hold one training image of the dataset (the
first eight of its training split); an eavesdropper records the messages
(ũ, x) to and from agent I, recovers its gradient at its first
activation (supplement App. A) and rebuilds the image DLG-style. It runs
twice — RECAL (no noise) and DP-RECAL with σ_1 calibrated so that PLF
activations spend ε (δ = 1e-3, c = 1, R = 1.01) — and prints the
reconstruction errors beside a random guess's. --out writes both
reconstructions and the true image as JSON (the page's attack panel
draws the same); --pgm writes PREFIX-true.pgm, PREFIX-recal.pgm and
PREFIX-dp-recal.pgm for square grey images (MNIST).

`

func cmdAttack(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("attack", attackHelp, stdout)
	ds := fs.String("dataset", "mnist-01", "the images: a committed image dataset (mnist-01, fmnist-tshirt-trouser, cifar10-catdog) or any binary dataset")
	target := fs.Int("target", 3, "the attacked agent, 0..7")
	eps := fs.Float64("epsilon", 12, "DP-RECAL's target ε at δ = 1e-3")
	alpha := fs.Float64("alpha", 0.5, "every agent's step α_i")
	plf := fs.Int("plf", 300, "the PLF the ε is calibrated for")
	steps := fs.Int("steps", 400, "DLG optimisation steps")
	seed := fs.Uint64("seed", 7, "seed of the walk, the noise and DLG's start")
	out := fs.String("out", "", "write the images and errors as JSON to FILE")
	pgm := fs.String("pgm", "", "write the three images as PREFIX-*.pgm (square grey images)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("attack", "takes no arguments (got %q)", fs.Arg(0))
	}
	set, err := data.Load(*ds, "train")
	if err != nil {
		return fmt.Errorf("--dataset: %s", strings.TrimPrefix(err.Error(), "dataset: "))
	}
	// Every output is checked before the attack runs: a missing folder,
	// an output named twice (--out PREFIX-true.pgm) or a folder in the way.
	outs := []output{{"--out", *out}}
	w := int(math.Sqrt(float64(set.Cols)))
	if *pgm != "" {
		if w*w != set.Cols || set.Pixels == nil {
			return flagError("pgm", "needs square grey images; "+*ds+" has "+fmt.Sprint(set.Cols)+" features", *pgm)
		}
		for _, name := range pgmNames {
			outs = append(outs, output{"--pgm", *pgm + "-" + name + ".pgm"})
		}
	}
	if err := checkFiles(nil, outs); err != nil {
		return err
	}
	rep, err := attack.FromDataset(set, attack.Options{Target: *target, Epsilon: *eps, Alpha: *alpha, PLF: *plf, Steps: *steps, Seed: *seed})
	if err != nil {
		return flagNamed(err)
	}
	clean, private := rep.Clean, rep.Private
	fmt.Fprintf(stdout, "attack on agent %d's %s image (label %+g), first activation at iteration %d\n", *target, *ds, clean.Label, clean.Iteration)
	fmt.Fprintf(stdout, "  RECAL:          %s\n", clean)
	fmt.Fprintf(stdout, "  DP-RECAL ε=%g: %s\n", *eps, private)
	if *out != "" {
		b, err := jsonout.Marshal(rep)
		if err != nil {
			return err
		}
		if err := writeBytes("--out", *out, append(b, '\n')); err != nil {
			return err
		}
	}
	if *pgm != "" {
		for i, im := range [][]float64{clean.Truth, clean.Reconstruction, private.Reconstruction} {
			if err := writeBytes("--pgm", *pgm+"-"+pgmNames[i]+".pgm", pgmBytes(im, w)); err != nil {
				return err
			}
		}
	}
	return nil
}

// pgmNames are the suffixes of --pgm's three images, in the order
// written: the true image, RECAL's reconstruction and DP-RECAL's.
var pgmNames = []string{"true", "recal", "dp-recal"}

// flagNamed names the flag behind an attack option's error
// ("attack.plf: …" → "--plf: …"); other errors pass unchanged.
func flagNamed(err error) error {
	var ce *check.Error
	if errors.As(err, &ce) {
		switch opt, _ := strings.CutPrefix(ce.Field, "attack."); opt {
		case "dataset", "target", "epsilon", "alpha", "plf", "steps", "seed":
			return fmt.Errorf("--%s: %s", opt, ce.Rule)
		}
	}
	return err
}

// pgmBytes encodes a w×w image with values in [0, 1] as a binary PGM.
func pgmBytes(im []float64, w int) []byte {
	b := []byte(fmt.Sprintf("P5\n%d %d\n255\n", w, w))
	for _, v := range im {
		b = append(b, byte(math.Round(255*math.Min(1, math.Max(0, v)))))
	}
	return b
}
