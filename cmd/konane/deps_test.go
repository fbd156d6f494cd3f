package main

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestDefaultBuildDeps: the default build, the one a player downloads and
// runs, carries no cloud storage: no gocloud.dev, and none of what it
// brings (the AWS SDK, gRPC, OpenTelemetry). The bucket drivers come
// with build tags (runstore: s3, gcs, azure). Nor does it carry the
// trainer (net/train, Gorgonia and what it brings), which comes with
// -tags trainer (konane-train), nor, on amd64, gonum (inference runs on
// the network's own kernels there; elsewhere on gonum's Sgemm).
func TestDefaultBuildDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/konanezero/konane/cmd/konane").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	banned := []string{"gocloud.dev/", "github.com/aws/", "google.golang.org/grpc", "go.opentelemetry.io/",
		"github.com/konanezero/konane/net/train", "gorgonia.org/", "github.com/apache/arrow", "github.com/gogo/protobuf", "github.com/awalterschulze/gographviz"}
	if runtime.GOARCH == "amd64" {
		banned = append(banned, "gonum.org/")
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, b := range banned {
			if strings.HasPrefix(pkg, b) {
				t.Errorf("the default build imports %s", pkg)
			}
		}
	}
}
