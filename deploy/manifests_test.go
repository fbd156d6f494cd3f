// Package deploy holds the container image and Kubernetes manifests of
// Kōnane Zero (see the README, "Train on many machines"). Its test decodes
// every manifest strictly into the Kubernetes API types, so that a typo in
// a field name or a wrong type fails here rather than at kubectl apply.
// It is a module of its own, so that the main module does not depend on
// the Kubernetes API; .ci/run runs its tests.
package deploy

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// decode splits a manifest file into its documents and decodes each one
// strictly (unknown or duplicate fields are errors) into the type its kind
// names.
func decode(t *testing.T, path string) []any {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	for i, doc := range bytes.Split(data, []byte("\n---\n")) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			t.Fatalf("%s document %d: %v", path, i+1, err)
		}
		var obj any
		switch tm.APIVersion + " " + tm.Kind {
		case "apps/v1 Deployment":
			obj = &appsv1.Deployment{}
		case "apps/v1 StatefulSet":
			obj = &appsv1.StatefulSet{}
		case "v1 Service":
			obj = &corev1.Service{}
		case "v1 ConfigMap":
			obj = &corev1.ConfigMap{}
		case "v1 Secret":
			obj = &corev1.Secret{}
		default:
			t.Fatalf("%s document %d: unexpected kind %q %q", path, i+1, tm.APIVersion, tm.Kind)
		}
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			t.Fatalf("%s document %d (%s): %v", path, i+1, tm.Kind, err)
		}
		out = append(out, obj)
	}
	return out
}

func TestManifests(t *testing.T) {
	paths, _ := filepath.Glob("k8s/*.yaml")
	if len(paths) == 0 {
		t.Fatal("no manifests in k8s/")
	}
	var objs []any
	for _, p := range paths {
		objs = append(objs, decode(t, p)...)
	}
	configMaps, secrets := map[string]*corev1.ConfigMap{}, map[string]*corev1.Secret{}
	var trainers []*appsv1.StatefulSet
	var workers []*appsv1.Deployment
	var pods []*corev1.PodTemplateSpec
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.ConfigMap:
			configMaps[o.Name] = o
		case *corev1.Secret:
			secrets[o.Name] = o
		case *appsv1.StatefulSet:
			trainers = append(trainers, o)
			pods = append(pods, &o.Spec.Template)
			if o.Spec.Replicas == nil || *o.Spec.Replicas != 1 {
				t.Errorf("trainer %s: want exactly 1 replica (one trainer per run)", o.Name)
			}
		case *appsv1.Deployment:
			workers = append(workers, o)
			pods = append(pods, &o.Spec.Template)
		}
	}
	if len(trainers) != 1 || len(workers) != 1 {
		t.Fatalf("%d trainers (StatefulSet) and %d worker Deployments, want 1 and 1", len(trainers), len(workers))
	}
	for _, p := range pods {
		if sc := p.Spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
			t.Errorf("pod %s: must run as a non-root user", p.Labels)
		}
		for _, c := range p.Spec.Containers {
			if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
				t.Errorf("container %s: needs cpu and memory requests", c.Name)
			}
			if len(c.Args) < 3 || !slices.Contains(c.Args, "--run") {
				t.Errorf("container %s: args %v name no --run", c.Name, c.Args)
			}
			vars := map[string]bool{}
			for _, e := range c.EnvFrom {
				switch {
				case e.ConfigMapRef != nil:
					cm, ok := configMaps[e.ConfigMapRef.Name]
					if !ok {
						t.Errorf("container %s: ConfigMap %s is not in the manifests", c.Name, e.ConfigMapRef.Name)
						continue
					}
					for k := range cm.Data {
						vars[k] = true
					}
				case e.SecretRef != nil:
					s, ok := secrets[e.SecretRef.Name]
					if !ok {
						t.Errorf("container %s: Secret %s is not in the manifests", c.Name, e.SecretRef.Name)
						continue
					}
					for k := range s.StringData {
						vars[k] = true
					}
				}
			}
			for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "RUN"} {
				if !vars[k] {
					t.Errorf("container %s: no %s in its environment", c.Name, k)
				}
			}
			for _, a := range c.Args {
				if strings.HasPrefix(a, "$(") && !vars[strings.Trim(a, "$()")] {
					t.Errorf("container %s: argument %s names no variable of its environment", c.Name, a)
				}
			}
			mounts := map[string]bool{}
			for _, m := range c.VolumeMounts {
				mounts[m.MountPath] = true
			}
			if c.SecurityContext != nil && c.SecurityContext.ReadOnlyRootFilesystem != nil && *c.SecurityContext.ReadOnlyRootFilesystem && !mounts["/tmp"] {
				t.Errorf("container %s: a read-only root needs a writable /tmp (the model and checkpoint staging)", c.Name)
			}
		}
	}
	if args := trainers[0].Spec.Template.Spec.Containers[0].Args; args[0] != "train" || !slices.Contains(args, "--selfplay=false") {
		t.Errorf("trainer args %v: want train ... --selfplay=false", args)
	}
	if args := workers[0].Spec.Template.Spec.Containers[0].Args; args[0] != "selfplay" || !slices.Contains(args, "--spool") {
		t.Errorf("worker args %v: want selfplay ... --spool DIR", args)
	}
}

// TestStrictDecodingCatchesTypos makes sure that the strict decoding above
// would notice a misspelt field.
func TestStrictDecodingCatchesTypos(t *testing.T) {
	bad := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replica: 2\n")
	if err := yaml.UnmarshalStrict(bad, &appsv1.Deployment{}); err == nil {
		t.Fatal("a misspelt field (replica) decoded without error")
	}
}
