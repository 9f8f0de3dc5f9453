#!/bin/sh
# Makes what the agents of `stampede-cli k8s render` need, with openssl: a CA, the agents'
# certificate and key signed by it, and a token, in OUTDIR; then prints the
# kubectl lines that store them as the Secrets the manifests mount.
#
# The certificate covers the names a controller checks: the headless
# Service's, short and qualified (stampede-agents, stampede-agents.NAMESPACE,
# ...svc, ...svc.cluster.local), and each pod's (*.stampede-agents.NAMESPACE.svc
# and ...svc.cluster.local). With --agents dns:stampede-agents:7070 the
# controller dials the pods' addresses, so it checks the certificate against
# the Service's name: run it with --agent-tls-name stampede-agents.
#
# Usage: scripts/make-agent-certs.sh NAMESPACE OUTDIR [DAYS]
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 NAMESPACE OUTDIR [DAYS]" >&2
    exit 2
fi
ns=$1
out=$2
days=${3:-365}
case $ns in
*[!a-z0-9-]* | "" | -* | *-)
    echo "$0: \"$ns\" is not a Kubernetes namespace name (lower-case letters, digits, -)" >&2
    exit 2
    ;;
esac
case $days in
*[!0-9]* | "")
    echo "$0: DAYS must be a whole number" >&2
    exit 2
    ;;
esac
mkdir -p "$out"
umask 077
svc=stampede-agents
openssl req -x509 -newkey rsa:3072 -nodes -days "$days" -subj "/CN=stampede agents CA" \
    -keyout "$out/ca.key" -out "$out/ca.crt" 2>/dev/null
openssl req -newkey rsa:3072 -nodes -subj "/CN=$svc.$ns.svc" \
    -keyout "$out/agent.key" -out "$out/agent.csr" 2>/dev/null
cat >"$out/agent.ext" <<EXT
basicConstraints = CA:FALSE
keyUsage = digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:$svc, DNS:$svc.$ns, DNS:$svc.$ns.svc, DNS:$svc.$ns.svc.cluster.local, DNS:*.$svc.$ns.svc, DNS:*.$svc.$ns.svc.cluster.local
EXT
openssl x509 -req -in "$out/agent.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" -CAcreateserial \
    -days "$days" -extfile "$out/agent.ext" -out "$out/agent.crt" 2>/dev/null
rm -f "$out/agent.csr" "$out/agent.ext" "$out/ca.srl"
if [ ! -s "$out/token" ]; then
    openssl rand -hex 32 >"$out/token"
fi
cat <<MSG
made in $out: ca.crt ca.key (keep ca.key off the cluster), agent.crt agent.key, token
kubectl -n $ns create secret generic stampede-agent-token --from-file=token=$out/token
kubectl -n $ns create secret tls stampede-agent-tls --cert=$out/agent.crt --key=$out/agent.key
kubectl -n $ns create secret generic stampede-agent-ca --from-file=ca.crt=$out/ca.crt
MSG
