// Package deploy holds the container image and Kubernetes manifests of
// Kōnane Zero (see the README, "Train on many machines"). Its test decodes
// every manifest strictly into the Kubernetes API types, so that a typo in
// a field name or a wrong type fails here rather than at kubectl apply.
// It is a module of its own, so that the main module does not depend on
// the Kubernetes API; .ci/run runs its tests.
package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
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
		case "autoscaling/v2 HorizontalPodAutoscaler":
			obj = &autoscalingv2.HorizontalPodAutoscaler{}
		case "policy/v1 PodDisruptionBudget":
			obj = &policyv1.PodDisruptionBudget{}
		case "networking.k8s.io/v1 Ingress":
			obj = &networkingv1.Ingress{}
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
	var workers, servers, bots []*appsv1.Deployment
	var pods []*corev1.PodTemplateSpec
	var hpas []*autoscalingv2.HorizontalPodAutoscaler
	var pdbs []*policyv1.PodDisruptionBudget
	var ingresses []*networkingv1.Ingress
	services := map[string]*corev1.Service{}
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
			if args := o.Spec.Template.Spec.Containers[0].Args; len(args) > 0 && args[0] == "serve" {
				servers = append(servers, o)
				continue
			} else if len(args) > 0 && args[0] == "bot" {
				bots = append(bots, o)
				continue
			}
			workers = append(workers, o)
			pods = append(pods, &o.Spec.Template)
		case *corev1.Service:
			services[o.Name] = o
		case *autoscalingv2.HorizontalPodAutoscaler:
			hpas = append(hpas, o)
		case *policyv1.PodDisruptionBudget:
			pdbs = append(pdbs, o)
		case *networkingv1.Ingress:
			ingresses = append(ingresses, o)
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
	var serveIngresses, botIngresses []*networkingv1.Ingress
	for _, ing := range ingresses {
		if svc := services[ing.Spec.Rules[0].HTTP.Paths[0].Backend.Service.Name]; svc != nil && svc.Spec.Selector["app.kubernetes.io/component"] == "bot" {
			botIngresses = append(botIngresses, ing)
		} else {
			serveIngresses = append(serveIngresses, ing)
		}
	}
	checkServe(t, servers, services, hpas, pdbs, serveIngresses)
	checkBot(t, bots, services, configMaps, secrets, botIngresses)
	checkImageTags(t, configMaps)
	if args := trainers[0].Spec.Template.Spec.Containers[0].Args; args[0] != "train" || !slices.Contains(args, "--selfplay=false") {
		t.Errorf("trainer args %v: want train ... --selfplay=false", args)
	}
	if cmd := trainers[0].Spec.Template.Spec.Containers[0].Command; !slices.Equal(cmd, []string{"/konane-train"}) {
		t.Errorf("trainer command %v: want /konane-train (the image's konane with the trainer)", cmd)
	}
	if args := workers[0].Spec.Template.Spec.Containers[0].Args; args[0] != "selfplay" || !slices.Contains(args, "--spool") {
		t.Errorf("worker args %v: want selfplay ... --spool DIR", args)
	}
}

// checkServe checks the play service: one Deployment of `konane serve`
// on 0.0.0.0:8080 run as non-root, with probes on /readyz and /healthz,
// resource requests, a grace period that covers the drain and the
// longest move; a Service, an HPA and a PDB that select or name it, and
// an Ingress with TLS to the Service.
func checkServe(t *testing.T, servers []*appsv1.Deployment, services map[string]*corev1.Service, hpas []*autoscalingv2.HorizontalPodAutoscaler, pdbs []*policyv1.PodDisruptionBudget, ingresses []*networkingv1.Ingress) {
	t.Helper()
	if len(servers) != 1 || len(hpas) != 1 || len(pdbs) != 1 || len(ingresses) != 1 {
		t.Fatalf("%d serve Deployments, %d HPAs, %d PDBs, %d Ingresses; want one each", len(servers), len(hpas), len(pdbs), len(ingresses))
	}
	d := servers[0]
	pod := d.Spec.Template.Spec
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Errorf("serve: must run as a non-root user")
	}
	c := pod.Containers[0]
	if !slices.Contains(c.Args, "0.0.0.0:8080") || c.Ports[0].ContainerPort != 8080 {
		t.Errorf("serve args %v, ports %v: want --addr 0.0.0.0:8080", c.Args, c.Ports)
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" ||
		c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("serve: probes on /readyz and /healthz wanted")
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("serve: needs cpu and memory requests")
	}
	flag := func(name string) string {
		if i := slices.Index(c.Args, name); i >= 0 && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
		return ""
	}
	move, err1 := time.ParseDuration(flag("--move-timeout"))
	drain, err2 := time.ParseDuration(flag("--drain-delay"))
	if err1 != nil || err2 != nil || pod.TerminationGracePeriodSeconds == nil || time.Duration(*pod.TerminationGracePeriodSeconds)*time.Second <= move+drain {
		t.Errorf("serve: the grace period must exceed --drain-delay + --move-timeout (%v, %v)", err1, err2)
	}
	labels := d.Spec.Template.Labels
	matches := func(sel map[string]string) bool {
		for k, v := range sel {
			if labels[k] != v {
				return false
			}
		}
		return len(sel) > 0
	}
	var svc *corev1.Service
	for _, s := range services {
		if matches(s.Spec.Selector) {
			svc = s
		}
	}
	if svc == nil {
		t.Fatal("no Service selects the serve pods")
	}
	if h := hpas[0]; h.Spec.ScaleTargetRef.Name != d.Name || h.Spec.ScaleTargetRef.Kind != "Deployment" || len(h.Spec.Metrics) == 0 || h.Spec.Metrics[0].Resource == nil || h.Spec.Metrics[0].Resource.Name != corev1.ResourceCPU {
		t.Errorf("the HPA must scale %s on CPU", d.Name)
	}
	if p := pdbs[0]; p.Spec.Selector == nil || !matches(p.Spec.Selector.MatchLabels) {
		t.Errorf("the PDB must select the serve pods")
	}
	ing := ingresses[0]
	if len(ing.Spec.TLS) == 0 || len(ing.Spec.Rules) == 0 || ing.Spec.Rules[0].HTTP.Paths[0].Backend.Service.Name != svc.Name {
		t.Errorf("the Ingress must have TLS and lead to the Service %s", svc.Name)
	}
}

// checkBot checks the AbstractPlay bot: one Deployment of `konane bot`
// with exactly one replica, replaced rather than rolled (its nonce memory
// is per process), on 0.0.0.0:8080 as non-root, with probes, resource
// requests, its settings from a ConfigMap and a Secret (the public key and
// the client id and secret, never in its arguments), a grace period
// longer than the longest move in flight (as apbot's Bot.Longest counts
// it), a Service that selects it and an Ingress with TLS that exposes "/"
// only.
func checkBot(t *testing.T, bots []*appsv1.Deployment, services map[string]*corev1.Service, configMaps map[string]*corev1.ConfigMap, secrets map[string]*corev1.Secret, ingresses []*networkingv1.Ingress) {
	t.Helper()
	if len(bots) != 1 || len(ingresses) != 1 {
		t.Fatalf("%d bot Deployments and %d bot Ingresses; want one each", len(bots), len(ingresses))
	}
	d := bots[0]
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("bot: want exactly 1 replica, replaced by Recreate")
	}
	pod := d.Spec.Template.Spec
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Errorf("bot: must run as a non-root user")
	}
	c := pod.Containers[0]
	if !slices.Contains(c.Args, "0.0.0.0:8080") || c.Ports[0].ContainerPort != 8080 {
		t.Errorf("bot args %v, ports %v: want --addr 0.0.0.0:8080", c.Args, c.Ports)
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" ||
		c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("bot: probes on /readyz and /healthz wanted")
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("bot: needs cpu and memory requests")
	}
	for _, a := range c.Args {
		if strings.Contains(strings.ToLower(a), "secret") || strings.HasPrefix(a, "ssh-") {
			t.Errorf("bot: argument %q: the settings come from the environment only", a)
		}
	}
	vars := map[string]bool{}
	for _, e := range c.EnvFrom {
		switch {
		case e.ConfigMapRef != nil && configMaps[e.ConfigMapRef.Name] != nil:
			for k := range configMaps[e.ConfigMapRef.Name].Data {
				vars[k] = true
			}
		case e.SecretRef != nil && secrets[e.SecretRef.Name] != nil:
			for k := range secrets[e.SecretRef.Name].StringData {
				vars[k] = true
			}
		default:
			t.Errorf("bot: envFrom %v names no ConfigMap or Secret of the manifests", e)
		}
	}
	for _, k := range []string{"AP_BOT_PUBLIC_KEY", "AP_BOT_CLIENT_ID", "AP_BOT_CLIENT_SECRET"} {
		if !vars[k] {
			t.Errorf("bot: no %s in its environment", k)
		}
	}
	flag := func(name string) string {
		if i := slices.Index(c.Args, name); i >= 0 && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
		return ""
	}
	move, err1 := time.ParseDuration(flag("--move-time"))
	query, err2 := time.ParseDuration(flag("--query-timeout"))
	var retries, pending, searches int
	_, err3 := fmt.Sscan(flag("--retries"), &retries)
	_, err4 := fmt.Sscan(flag("--max-pending"), &pending)
	_, err5 := fmt.Sscan(flag("--max-searches"), &searches)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		t.Fatalf("bot: --move-time, --query-timeout, --retries, --max-pending and --max-searches must be given: %v", err)
	}
	search := 2*move + 5*time.Second
	longest := time.Duration(pending/searches)*search + search + time.Duration(retries+2)*2*query
	for i := range retries {
		longest += time.Second << i
	}
	if pod.TerminationGracePeriodSeconds == nil || time.Duration(*pod.TerminationGracePeriodSeconds)*time.Second <= longest {
		t.Errorf("bot: the grace period must exceed the longest move in flight, %v", longest)
	}
	var svc *corev1.Service
	for _, s := range services {
		if sel := s.Spec.Selector; len(sel) > 0 && sel["app.kubernetes.io/component"] == d.Spec.Template.Labels["app.kubernetes.io/component"] &&
			sel["app.kubernetes.io/name"] == d.Spec.Template.Labels["app.kubernetes.io/name"] {
			svc = s
		}
	}
	if svc == nil {
		t.Fatal("no Service selects the bot pods")
	}
	ing := ingresses[0]
	if len(ing.Spec.TLS) == 0 || len(ing.Spec.Rules) != 1 || len(ing.Spec.Rules[0].HTTP.Paths) != 1 {
		t.Fatalf("the bot's Ingress must have TLS and one path")
	}
	p := ing.Spec.Rules[0].HTTP.Paths[0]
	if p.Backend.Service.Name != svc.Name || p.Path != "/" || p.PathType == nil || *p.PathType != networkingv1.PathTypeExact {
		t.Errorf("the bot's Ingress must lead \"/\" (Exact, so not /metrics) to the Service %s", svc.Name)
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

// checkImageTags checks that the container image carries the storage
// driver of every run location in the manifests: the default build of
// konane has only file://, and each bucket driver comes with a build tag
// (s3, gcs, azure) that the Dockerfile's TAGS must name.
func checkImageTags(t *testing.T, configMaps map[string]*corev1.ConfigMap) {
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "ARG TAGS="); ok {
			tags = strings.Split(strings.Trim(v, `"`), ",")
		}
	}
	if !strings.Contains(string(data), `-tags "$TAGS"`) {
		t.Error("Dockerfile: the build does not pass -tags \"$TAGS\"")
	}
	tagOf := map[string]string{"s3": "s3", "gs": "gcs", "azblob": "azure"}
	for _, cm := range configMaps {
		run, ok := cm.Data["RUN"]
		if !ok {
			continue
		}
		scheme, _, found := strings.Cut(run, "://")
		if !found || scheme == "file" {
			continue
		}
		if tag, ok := tagOf[scheme]; !ok || !slices.Contains(tags, tag) {
			t.Errorf("ConfigMap %s: RUN %s needs the %s driver, but the Dockerfile builds with tags %q", cm.Name, scheme+"://…", scheme, tags)
		}
	}
}
