// The controller-runtime side of bench/runtime-scale.ts: one informer cache of ConfigMaps (whole
// objects, or metadata only with METADATA_ONLY=1), started, synced, then reported as one JSON line
// on stdout: seconds to sync, objects cached, and the process's memory after a GC, again after
// SETTLE_SECONDS of quiet and another GC, and at its peak. With RELIST=1 it then waits for the API
// server to answer its watch with 410 Gone and prints a second line: seconds from the 410 to the
// relist stored, and the peak RSS of the relist.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type report struct {
	SyncSeconds float64 `json:"syncSeconds"`
	Objects     int     `json:"objects"`
	RssMiB      float64 `json:"rssMiB"`
	SettledMiB  float64 `json:"settledRssMiB"`
	PeakRssMiB  float64 `json:"peakRssMiB"`
}

type relistReport struct {
	RelistSeconds float64 `json:"relistSeconds"`
	Objects       int     `json:"objects"`
	PeakRssMiB    float64 `json:"relistPeakRssMiB"`
}

// statusKiB reads one "VmRSS:"/"VmHWM:" line of /proc/self/status.
func statusKiB(field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line)
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	return 0
}

func main() {
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG_PATH"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cfg.QPS, cfg.Burst = -1, -1
	namespace := os.Getenv("NAMESPACE")
	gone := make(chan time.Time, 1)
	c, err := cache.New(cfg, cache.Options{
		DefaultNamespaces: map[string]cache.Config{namespace: {}},
		DefaultWatchErrorHandler: func(ctx context.Context, r *toolscache.Reflector, err error) {
			if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
				select {
				case gone <- time.Now():
				default:
				}
			}
			toolscache.DefaultWatchErrorHandler(ctx, r, err)
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var obj client.Object = &corev1.ConfigMap{}
	var list client.ObjectList = &corev1.ConfigMapList{}
	if os.Getenv("METADATA_ONLY") == "1" {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
		obj = m
		l := &metav1.PartialObjectMetadataList{}
		l.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMapList"))
		list = l
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	informer, err := c.GetInformer(ctx, obj)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		fmt.Fprintln(os.Stderr, "cache did not sync")
		os.Exit(1)
	}
	synced := time.Since(started).Seconds()
	if err := c.List(ctx, list, client.InNamespace(namespace)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runtime.GC()
	debug.FreeOSMemory()
	r := report{SyncSeconds: synced, Objects: len(mustItems(list)), RssMiB: statusKiB("VmRSS") / 1024}
	settle, _ := strconv.ParseFloat(os.Getenv("SETTLE_SECONDS"), 64)
	if os.Getenv("SETTLE_SECONDS") == "" {
		settle = 10
	}
	time.Sleep(time.Duration(settle * float64(time.Second)))
	runtime.GC()
	debug.FreeOSMemory()
	r.SettledMiB, r.PeakRssMiB = statusKiB("VmRSS")/1024, statusKiB("VmHWM")/1024
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	if os.Getenv("RELIST") != "1" {
		return
	}
	// A relist delivers every object it lists again as an update: it is stored once all have come.
	// (The namespaced cache's informer does not show its reflector's resourceVersion.)
	var updates atomic.Int64
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, _ interface{}) { updates.Add(1) },
	}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t410 := <-gone
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	for updates.Load() < int64(r.Objects) {
		time.Sleep(5 * time.Millisecond)
	}
	rr := relistReport{RelistSeconds: time.Since(t410).Seconds()}
	if err := c.List(ctx, list, client.InNamespace(namespace)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rr.Objects, rr.PeakRssMiB = len(mustItems(list)), statusKiB("VmHWM")/1024
	out, _ = json.Marshal(rr)
	fmt.Println(string(out))
}

func mustItems(list client.ObjectList) []struct{} {
	switch l := list.(type) {
	case *corev1.ConfigMapList:
		return make([]struct{}, len(l.Items))
	case *metav1.PartialObjectMetadataList:
		return make([]struct{}, len(l.Items))
	}
	return nil
}
