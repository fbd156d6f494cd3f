package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDefaultBuildDeps: the default build, the one a player downloads and
// runs, carries no cloud storage: no gocloud.dev, and none of what it
// brings (the AWS SDK, gRPC, OpenTelemetry). The bucket drivers come
// with build tags (runstore: s3, gcs, azure). Nor does it carry the
// trainer (net/train, Gorgonia and what it brings), which comes with
// -tags trainer (konane-train), nor gonum (inference runs on the
// network's own kernels on amd64).
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
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"gocloud.dev/", "github.com/aws/", "google.golang.org/grpc", "go.opentelemetry.io/",
			"github.com/konanezero/konane/net/train", "gorgonia.org/", "github.com/apache/arrow", "github.com/gogo/protobuf", "github.com/awalterschulze/gographviz", "gonum.org/"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("the default build imports %s", pkg)
			}
		}
	}
}
