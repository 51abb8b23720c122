// The controller-runtime side of bench/runtime-scale.ts: one informer cache of ConfigMaps (whole
// objects, or metadata only with METADATA_ONLY=1), started, synced, then reported as one JSON line
// on stdout: seconds to sync, objects cached, and the process's memory after a GC.
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
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type report struct {
	SyncSeconds float64 `json:"syncSeconds"`
	Objects     int     `json:"objects"`
	RssMiB      float64 `json:"rssMiB"`
	PeakRssMiB  float64 `json:"peakRssMiB"`
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
	c, err := cache.New(cfg, cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}})
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
	if _, err := c.GetInformer(ctx, obj); err != nil {
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
	r := report{SyncSeconds: synced, Objects: len(mustItems(list)), RssMiB: statusKiB("VmRSS") / 1024, PeakRssMiB: statusKiB("VmHWM") / 1024}
	out, _ := json.Marshal(r)
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
