module dpsim

go 1.26.8

require (
	github.com/ebitengine/gomobile v0.0.0-20250923094054-ea854a63cce1 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.9.0 // indirect
	github.com/hajimehoshi/ebiten/v2 v2.9.10 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	github.com/norunners/vert v0.0.0-20221203075838-106a353d42dd // indirect
	golang.org/x/sync v0.21.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
