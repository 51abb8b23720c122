// Command protobuf-table writes runtime/rest/protobuf-table.ts: for every kind of the built-in API
// groups at their preferred version (client-go's scheme, which the API server serves in
// protobuf), the protobuf field numbers of each message and the JSON name and form of each field,
// read by reflection from the Go types' `protobuf:"…"`, `protobuf_key`/`protobuf_val` and
// `json:"…"` tags. The runtime's protobuf decoder turns a message into the object the API server's
// JSON would give with this table alone.
//
//	cd scripts/protobuf-table && go run . > ../../runtime/rest/protobuf-table.ts
//
// The table's format (a JSON array of messages, each an array of fields):
//
//	field: [number, jsonName, type, flags] or [number, jsonName, type, flags, [apiVersion, kind]]
//	type:  "s" string, "b" bool, "i" int32, "l" int64, "u" uint32/uint64, "d" float64, "f" float32,
//	       "y" bytes (base64), "T" metav1.Time, "M" metav1.MicroTime, "D" metav1.Duration,
//	       "Q" resource.Quantity, "I" intstr.IntOrString, "R" embedded JSON (RawExtension, FieldsV1),
//	       a number: the index of a message, [keyType, valueType] a map, [itemType] a named
//	       slice as a map value, sent as a message whose field 1 holds the items
//	flags: 1 repeated, 2 omitempty, 4 pointer, 8 inline (an embedded struct: its fields are the
//	       parent's), 16 a named slice sent as a message whose field 1 holds the items, 32 omitzero
//	       (a zero time is left out), 64 the objects get the apiVersion and kind that follow
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

const (
	flagRepeated  = 1
	flagOmitEmpty = 2
	flagPointer   = 4
	flagInline    = 8
	flagWrapped   = 16
	flagOmitZero  = 32
	flagStamp     = 64
)

// Types whose JSON form is their own (MarshalJSON), by package path and name.
var special = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       "T",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  "M",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   "D",
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   "Q",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": "I",
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    "R",
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   "R",
}

// The group versions a Kubernetes 1.36 API server prefers (its discovery's preferredVersion, with
// the default feature gates): what a client asks for unless it names another. Other versions of a
// group (autoscaling/v1, a beta) are read as JSON.
var preferred = []string{
	"v1",
	"admissionregistration.k8s.io/v1",
	"apps/v1",
	"authentication.k8s.io/v1",
	"authorization.k8s.io/v1",
	"autoscaling/v2",
	"batch/v1",
	"certificates.k8s.io/v1",
	"coordination.k8s.io/v1",
	"discovery.k8s.io/v1",
	"events.k8s.io/v1",
	"flowcontrol.apiserver.k8s.io/v1",
	"networking.k8s.io/v1",
	"node.k8s.io/v1",
	"policy/v1",
	"rbac.authorization.k8s.io/v1",
	"resource.k8s.io/v1",
	"scheduling.k8s.io/v1",
	"storage.k8s.io/v1",
}

// Objects inside an object whose apiVersion and kind the API server's JSON gives although the
// protobuf message has no field for them (TypeMeta is not on the wire): a StatefulSet's
// volumeClaimTemplates, which the server defaults on every read, and a PartialObjectMetadataList's
// items, which it stamps. Keyed by the owning struct and the field's Go name.
var stamps = map[string][2]string{
	"k8s.io/api/apps/v1.StatefulSetSpec.VolumeClaimTemplates":              {"v1", "PersistentVolumeClaim"},
	"k8s.io/apimachinery/pkg/apis/meta/v1.PartialObjectMetadataList.Items": {"meta.k8s.io/v1", "PartialObjectMetadata"},
}

var jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

type table struct {
	messages [][]any
	index    map[reflect.Type]int
	names    []string
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "protobuf-table: "+format+"\n", args...)
	os.Exit(1)
}

func typeName(t reflect.Type) string { return t.PkgPath() + "." + t.Name() }

// message returns the index of struct type t's message, adding it (and what it reaches) first.
func (tb *table) message(t reflect.Type) int {
	if i, ok := tb.index[t]; ok {
		return i
	}
	i := len(tb.messages)
	tb.index[t] = i
	tb.messages = append(tb.messages, nil)
	tb.names = append(tb.names, typeName(t))
	var fields []any
	for n := 0; n < t.NumField(); n++ {
		f := t.Field(n)
		tag, ok := f.Tag.Lookup("protobuf")
		if !ok || tag == "-" {
			continue // TypeMeta: the envelope carries apiVersion and kind
		}
		parts := strings.Split(tag, ",")
		num, err := strconv.Atoi(parts[1])
		if err != nil {
			fail("%s.%s: protobuf tag %q has no field number", typeName(t), f.Name, tag)
		}
		jsonTag := f.Tag.Get("json")
		if jsonTag == "-" {
			continue
		}
		jsonParts := strings.Split(jsonTag, ",")
		name := jsonParts[0]
		flags := 0
		for _, o := range jsonParts[1:] {
			switch o {
			case "omitempty":
				flags |= flagOmitEmpty
			case "omitzero":
				// Go ≥ 1.24 leaves out a zero value; the decoder knows it for times only.
				if c := special[typeName(f.Type)]; c != "T" && c != "M" {
					fail("%s.%s: omitzero is handled for metav1.Time and MicroTime only", typeName(t), f.Name)
				}
				flags |= flagOmitZero
			}
		}
		ft := f.Type
		if f.Anonymous && name == "" {
			// An embedded struct without a JSON name: encoding/json promotes its fields.
			flags |= flagInline
		} else if name == "" {
			name = f.Name
		}
		if ft.Kind() == reflect.Pointer {
			flags |= flagPointer
			ft = ft.Elem()
		}
		var typ any
		switch {
		case ft.Kind() == reflect.Map:
			typ = []any{tb.typeOf(ft.Key(), t, f.Name), tb.typeOf(ft.Elem(), t, f.Name)}
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8:
			// A named slice (metav1.Verbs) is a message of its own; the tag says "rep" or "opt" either way.
			if ft.Name() != "" {
				flags |= flagWrapped
			} else {
				flags |= flagRepeated
			}
			typ = tb.typeOf(ft.Elem(), t, f.Name)
		default:
			typ = tb.typeOf(ft, t, f.Name)
		}
		if stamp, ok := stamps[typeName(t)+"."+f.Name]; ok {
			fields = append(fields, []any{num, name, typ, flags | flagStamp, stamp})
			continue
		}
		fields = append(fields, []any{num, name, typ, flags})
	}
	tb.messages[i] = fields
	return i
}

// typeOf is the table's type of a field's (or a map key's or value's) Go type.
func (tb *table) typeOf(t reflect.Type, owner reflect.Type, field string) any {
	if code, ok := special[typeName(t)]; ok {
		return code
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 && t.Name() != "" {
		// A named slice as a map value (ExtraValue): a message whose field 1 holds the items.
		return []any{tb.typeOf(t.Elem(), owner, field)}
	}
	if t.Kind() == reflect.Struct && (t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler)) {
		fail("%s.%s: %s has a JSON form of its own the decoder does not know", typeName(owner), field, typeName(t))
	}
	switch t.Kind() {
	case reflect.String:
		return "s"
	case reflect.Bool:
		return "b"
	case reflect.Int32, reflect.Int:
		return "i"
	case reflect.Int64:
		return "l"
	case reflect.Uint32, reflect.Uint64, reflect.Uint16, reflect.Uint8:
		return "u"
	case reflect.Float64:
		return "d"
	case reflect.Float32:
		return "f"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "y"
		}
	case reflect.Struct:
		return tb.message(t)
	case reflect.Pointer:
		return tb.typeOf(t.Elem(), owner, field)
	}
	fail("%s.%s: Go type %s has no table type", typeName(owner), field, t)
	return nil
}

func main() {
	tb := &table{index: map[reflect.Type]int{}}
	kinds := map[string]int{}
	hasMetadata := func(t reflect.Type) bool {
		f, ok := t.FieldByName("ObjectMeta")
		if ok && f.Anonymous {
			return true
		}
		f, ok = t.FieldByName("ListMeta")
		return ok && f.Anonymous
	}
	var gvs []schema.GroupVersion
	for _, v := range preferred {
		gv, err := schema.ParseGroupVersion(v)
		if err != nil || len(scheme.Scheme.KnownTypes(gv)) == 0 {
			fail("%s is not a group version of client-go's scheme", v)
		}
		gvs = append(gvs, gv)
	}
	// ObjectMeta first: the decoder finds managedFields' message there.
	tb.message(reflect.TypeOf(metav1.ObjectMeta{}))
	for _, gv := range gvs {
		known := scheme.Scheme.KnownTypes(gv)
		names := make([]string, 0, len(known))
		for k := range known {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, kind := range names {
			t := known[kind]
			if t.Kind() != reflect.Struct || !hasMetadata(t) {
				continue // options types, WatchEvent, Status
			}
			kinds[gv.String()+"/"+kind] = tb.message(t)
		}
	}
	meta := map[string]reflect.Type{
		"meta.k8s.io/v1/PartialObjectMetadata":     reflect.TypeOf(metav1.PartialObjectMetadata{}),
		"meta.k8s.io/v1/PartialObjectMetadataList": reflect.TypeOf(metav1.PartialObjectMetadataList{}),
		"meta.k8s.io/v1/Status":                    reflect.TypeOf(metav1.Status{}),
		"v1/Status":                                reflect.TypeOf(metav1.Status{}),
	}
	for k, t := range meta {
		kinds[k] = tb.message(t)
	}
	kindJSON, _ := json.Marshal(kinds)
	msgJSON, _ := json.Marshal(tb.messages)
	versions := make([]string, len(gvs))
	for i, gv := range gvs {
		versions[i] = gv.String()
	}
	fmt.Print("// Generated by scripts/protobuf-table (`go run .` there) from k8s.io/api v0.36.3; do not edit.\n")
	fmt.Print("// The built-in kinds at the preferred versions of a Kubernetes 1.36 API server:\n")
	fmt.Print(wrap(strings.Join(versions, ", ")+".", "// "))
	fmt.Print("// protobuf.ts reads it; scripts/protobuf-table/main.go says what a field's entries mean.\n\n")
	fmt.Print("/** apiVersion/kind → index of its message in MESSAGES (JSON). */\n")
	fmt.Printf("export const KINDS = %s;\n\n", stringChunks(string(kindJSON)))
	fmt.Print("/** Every message's fields (JSON): [number, jsonName, type, flags, stamp?]. */\n")
	fmt.Printf("export const MESSAGES = %s;\n", stringChunks(string(msgJSON)))
	fmt.Fprintf(os.Stderr, "%d kinds, %d messages\n", len(kinds), len(tb.messages))
}

// wrap breaks text into comment lines of at most 100 characters.
func wrap(text, prefix string) string {
	var b strings.Builder
	line := prefix
	for _, word := range strings.Fields(text) {
		if len(line)+len(word) > 100 && line != prefix {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = prefix
		}
		line += word + " "
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}

// stringChunks writes text as TypeScript: an array of single-quoted pieces joined, one piece a
// line, so that no line is longer than the formatter's 120 columns.
func stringChunks(text string) string {
	if strings.ContainsAny(text, "'\\\n") {
		fail("the table holds a quote, a backslash or a newline; stringChunks would need to escape it")
	}
	var b strings.Builder
	b.WriteString("[\n")
	for len(text) > 0 {
		n := min(110, len(text))
		// Never split a UTF-8 sequence.
		for n < len(text) && text[n]&0xC0 == 0x80 {
			n--
		}
		b.WriteString("  '" + text[:n] + "',\n")
		text = text[n:]
	}
	b.WriteString("].join('')")
	return b.String()
}
