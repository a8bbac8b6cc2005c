package experiment

// Paper is one of the papers whose figures the presets reproduce: its
// authors and title as the paper prints them, and the algorithm it is
// known by here.
type Paper struct {
	Authors, Title, Algorithm string
}

// Name is how an experiment's reproduces.paper names the paper: the
// authors, the title, and the algorithm's name in parentheses.
func (p Paper) Name() string { return p.Authors + ", " + p.Title + " (" + p.Algorithm + ")" }

// Papers lists the papers the presets reproduce, in the order the
// gallery shows them.
var Papers = []Paper{
	{"Y. Xuan and Y. Wang", "Gradient-Tracking Based Differentially Private Distributed Optimization with Enhanced Optimization Accuracy", "GT-DP"},
	{"W. Huo, X. Chen, L. Huang, K. H. Johansson and L. Shi", "Differentially Private Dual Gradient Tracking for Distributed Resource Allocation", "DP-DGT"},
	{"Z. Ou, D. Wang, Z. Liu and J. Lu", "Distributed Nonconvex Optimization with Double Privacy Protection and Exact Convergence", "DPP²"},
	{"L. Wang, L. Guo, S. Yang and X. Shi", "Differentially Private Decentralized Optimization with Relay Communication", "DP-RECAL"},
	{"Z. Chen and Y. Wang", "Local Differential Privacy for Decentralized Online Stochastic Optimization with Guaranteed Optimality and Convergence Speed", "LDP online"},
}

// PaperNamed returns the paper whose Name is name.
func PaperNamed(name string) (Paper, bool) {
	for _, p := range Papers {
		if p.Name() == name {
			return p, true
		}
	}
	return Paper{}, false
}
