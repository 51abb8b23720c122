{{/* Helpers of the __chart__ chart (written by tsop edit --plugins helm/v2-alpha). */}}

{{/* The chart's name, or nameOverride. */}}
{{- define "__chart__.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's base name: fullnameOverride, else the release name, with the chart name unless the release name holds it already. */}}
{{- define "__chart__.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The helm.sh/chart label: name-version. */}}
{{- define "__chart__.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The name of one of the release's objects: "<fullname>-<suffix>", the base name shortened so the
whole stays within Kubernetes' 63 characters. Call with (dict "suffix" "webhook-service" "context" $).
*/}}
{{- define "__chart__.resourceName" -}}
{{- $base := include "__chart__.fullname" .context }}
{{- $room := sub 62 (len .suffix) | int }}
{{- printf "%s-%s" ($base | trunc $room | trimSuffix "-") .suffix | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The manager's ServiceAccount: an existing one (serviceAccount.enabled=false, serviceAccount.name), else the chart's. */}}
{{- define "__chart__.serviceAccountName" -}}
{{- if and (eq .Values.serviceAccount.enabled false) .Values.serviceAccount.name }}
{{- .Values.serviceAccount.name }}
{{- else }}
{{- include "__chart__.resourceName" (dict "suffix" "controller-manager" "context" .) }}
{{- end }}
{{- end }}
