// The controller-runtime side of bench/runtime-scale.ts: one informer cache of ConfigMaps (whole
// objects, or metadata only with METADATA_ONLY=1), started, synced, then reported as one JSON line
// on stdout: seconds to sync, objects cached, and the process's memory after a GC, again after
// SETTLE_SECONDS of quiet and another GC, and at its peak. With RELIST=1 it then waits for a line
// on stdin, which the parent writes once the API server is back over a compacted etcd (so the
// watch's resumption is answered 410 Gone), and prints a second line: seconds from the server's
// return to the relist stored (the reflector's last synced resourceVersion moves to the new
// list's), and the peak RSS of the relist.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

type report struct {
	SyncSeconds float64 `json:"syncSeconds"`
	Objects     int     `json:"objects"`
	RssMiB      float64 `json:"rssMiB"`
	SettledMiB  float64 `json:"settledRssMiB"`
	PeakRssMiB  float64 `json:"peakRssMiB"`
	// The live heap after a GC (HeapAlloc): what the cached objects hold.
	HeapMiB float64 `json:"heapMiB"`
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
	// Quiet, as tsop's child is: nothing here is worth a log line.
	log.SetLogger(logr.Discard())
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG_PATH"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cfg.QPS, cfg.Burst = -1, -1
	namespace := os.Getenv("NAMESPACE")
	c, err := cache.New(cfg, cache.Options{
		DefaultNamespaces: map[string]cache.Config{namespace: {}},
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
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	r.HeapMiB = float64(mem.HeapAlloc) / (1 << 20)
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	if os.Getenv("RELIST") != "1" {
		return
	}
	// A relist of unchanged objects reaches no event handler (client-go delivers a same-version
	// replace as a resync), and the reflector's 410 is logged, not given to the watch error
	// handler: the relist shows only as the reflector's last synced resourceVersion moving.
	reflector := lastSynced(informer)
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Read once the server is back: a bookmark before it stopped may have moved it.
	back, before := time.Now(), reflector.LastSyncResourceVersion()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	for reflector.LastSyncResourceVersion() == before {
		time.Sleep(5 * time.Millisecond)
	}
	rr := relistReport{RelistSeconds: time.Since(back).Seconds()}
	if err := c.List(ctx, list, client.InNamespace(namespace)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rr.Objects, rr.PeakRssMiB = len(mustItems(list)), statusKiB("VmHWM")/1024
	out, _ = json.Marshal(rr)
	fmt.Println(string(out))
}

// lastSynced reaches the one namespace's shared informer inside controller-runtime's
// multi-namespace informer, which keeps it in an unexported map (a benchmark may look).
func lastSynced(informer cache.Informer) interface{ LastSyncResourceVersion() string } {
	if s, ok := informer.(interface{ LastSyncResourceVersion() string }); ok {
		return s
	}
	field := reflect.ValueOf(informer).Elem().FieldByName("namespaceToInformer")
	byNamespace := reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem()
	for _, key := range byNamespace.MapKeys() {
		if s, ok := byNamespace.MapIndex(key).Interface().(interface{ LastSyncResourceVersion() string }); ok {
			return s
		}
	}
	fmt.Fprintln(os.Stderr, "no shared informer with a resourceVersion inside", reflect.TypeOf(informer))
	os.Exit(1)
	return nil
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
