#!/usr/bin/env bash
# Mints a throwaway CA and a serving certificate for the draguard webhook, then prints the
# CA bundle (base64 PEM) for the webhook configurations' caBundle.
#
#   certs/mint-certs.sh [--namespace NS] [--service NAME] [--out DIR] [--san SAN]... [--days N]
#                       [--client CN]
#
# SANs always include NAME.NS.svc and NAME.NS.svc.cluster.local (what the API server dials);
# --san adds more: an IP (127.0.0.1) or a DNS name (localhost), e.g. for the local demo.
# Writes DIR/ca.crt, DIR/ca.key, DIR/tls.crt, DIR/tls.key (keys mode 0600). Nothing minted here
# belongs in git: DIR defaults to a fresh temporary directory. Keys are ECDSA P-256.
# To rotate the serving certificate with the same CA, run again with --reuse-ca.
# --client CN also mints a client CA (DIR/client-ca.crt, for `draguard serve --client-ca-file`)
# and a client certificate for CN (DIR/client.crt, DIR/client.key) for the API server's
# AdmissionConfiguration kubeconfig (see docs/webhook.md, "Client authentication").
set -euo pipefail

namespace=draguard
service=draguard
out=""
days=365
reuse_ca=0
extra_sans=()
client=""

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --namespace) namespace="$2"; shift 2 ;;
    --service) service="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --san) extra_sans+=("$2"); shift 2 ;;
    --days) days="$2"; shift 2 ;;
    --reuse-ca) reuse_ca=1; shift ;;
    --client) client="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "mint-certs: unknown argument $1" >&2; usage 2 ;;
  esac
done

command -v openssl >/dev/null || { echo "mint-certs: openssl not found" >&2; exit 1; }
[[ -n "$out" ]] || out="$(mktemp -d -t draguard-certs.XXXXXX)"
mkdir -p "$out"
umask 077

sans="DNS:${service}.${namespace}.svc,DNS:${service}.${namespace}.svc.cluster.local"
for san in "${extra_sans[@]}"; do
  if [[ "$san" =~ ^[0-9.]+$ || "$san" == *:* ]]; then sans+=",IP:${san}"; else sans+=",DNS:${san}"; fi
done

# mint_ca NAME CN: a self-signed CA in $out/NAME.crt and $out/NAME.key, kept with --reuse-ca.
mint_ca() {
  if [[ "$reuse_ca" -eq 0 || ! -s "$out/$1.key" ]]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
      -keyout "$out/$1.key" -out "$out/$1.crt" -days "$days" \
      -subj "/CN=$2" \
      -addext "basicConstraints=critical,CA:TRUE" \
      -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  fi
}
mint_ca ca draguard-webhook-ca

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout "$work/tls.key" -out "$work/tls.csr" \
  -subj "/CN=${service}.${namespace}.svc" 2>/dev/null
cat > "$work/ext.cnf" <<EXT
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=${sans}
EXT
openssl x509 -req -in "$work/tls.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" \
  -set_serial "0x$(openssl rand -hex 16)" -days "$days" -sha256 \
  -extfile "$work/ext.cnf" -out "$work/tls.crt" 2>/dev/null

# Replace the pair with renames so that a watching server never reads a half-written file
# (it may briefly see a new certificate with the old key; it then keeps the old pair and
# retries on its next poll).
chmod 0644 "$work/tls.crt" "$out/ca.crt"
mv -f "$work/tls.key" "$out/tls.key.new" && mv -f "$out/tls.key.new" "$out/tls.key"
mv -f "$work/tls.crt" "$out/tls.crt.new" && mv -f "$out/tls.crt.new" "$out/tls.crt"

if [[ -n "$client" ]]; then
  mint_ca client-ca draguard-client-ca
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$work/client.key" -out "$work/client.csr" -subj "/CN=${client}" 2>/dev/null
  printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n' \
    > "$work/client-ext.cnf"
  openssl x509 -req -in "$work/client.csr" -CA "$out/client-ca.crt" -CAkey "$out/client-ca.key" \
    -set_serial "0x$(openssl rand -hex 16)" -days "$days" -sha256 \
    -extfile "$work/client-ext.cnf" -out "$work/client.crt" 2>/dev/null
  chmod 0644 "$work/client.crt" "$out/client-ca.crt"
  mv -f "$work/client.key" "$out/client.key"
  mv -f "$work/client.crt" "$out/client.crt"
  echo "client certificate for CN=${client} in $out/client.crt (CA: $out/client-ca.crt)" >&2
fi

echo "draguard certificates in $out (SANs: $sans)" >&2
# The caBundle, one line, on stdout.
base64 -w0 < "$out/ca.crt"
echo
