package experiment

// The experiment presets that train on datasets (ldp-fig1 … ldp-fig3)
// plan from the committed files.
import _ "dpsim/core/data/files"
