package data

import (
	"os"
	"testing"
)

func init() { Use(os.DirFS("files")) }

func TestLoadMushrooms(t *testing.T) {
	s, err := Load("mushrooms", "train")
	if err != nil {
		t.Fatal(err)
	}
	if s.Rows != 6500 || s.Cols != 112 || len(s.Classes) != 2 || s.Name != "mushrooms" || s.Split != "train" {
		t.Fatalf("got %s/%s %d×%d %v", s.Name, s.Split, s.Rows, s.Cols, s.Classes)
	}
	again, _ := Load("mushrooms", "train")
	if again != s {
		t.Error("second Load decoded again: want the shared Set")
	}
}
