//go:build !purego

package cpufeat

func testingPurego() bool { return false }
