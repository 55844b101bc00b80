# Sourced by the benchmarks that push: an APNs receiver on 127.0.0.1 for `passwright serve` to push to.
#
#   start_apns_receiver nginx|standin     # needs $bin, $work and the dev identities in $work/ids
#
# Both receivers serve HTTP/2 over TLS with a certificate the dev root CA issued for 127.0.0.1, and
# record each request as a JSON line {"time", "path", "connection"} in $work/requests.jsonl. Sets
# apns_port and standin (the receiver's pid, for the caller's cleanup to kill).
#
# nginx (Debian's, with libnginx-mod-http-echo) is the fast one, so the receiver is not the limit: it
# requires the pass type's client certificate (the dev WWDR chain), reads each request body
# (echo_read_request_body) and answers 200. A second nginx server, the same but without client
# certificates (h2load cannot send one), is on h2load_port for the limit. The stand-in is the Python
# one the tests use (Tests/Support/apns-standin, needs `pip install h2`).
start_apns_receiver() {
  # The receiver's TLS certificate, issued by the dev root for 127.0.0.1; the key stays in a 0600 file.
  (umask 077 && openssl req -new -newkey rsa:2048 -nodes -keyout "$work/standin-key.pem" -subj "/CN=localhost" \
    -out "$work/standin.csr" 2>/dev/null)
  printf 'basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$work/standin.ext"
  openssl x509 -req -in "$work/standin.csr" -CA "$work/ids/dev-ca/root.pem" -CAkey "$work/ids/dev-ca/root-key.pem" \
    -set_serial "0x$(openssl rand -hex 16)" -days 1 -extfile "$work/standin.ext" -out "$work/standin.pem" 2>/dev/null
  if [ "$1" = nginx ]; then
    start_nginx_receiver
  else
    python3 -c 'import h2' 2>/dev/null || { echo "the stand-in needs the h2 package: pip install h2" >&2; exit 1; }
    python3 -u Tests/Support/apns-standin/apns_standin.py --ca "$work/ids/dev-ca/root.pem" --cert "$work/standin.pem" \
      --key "$work/standin-key.pem" --record "$work/requests.jsonl" --port 0 >"$work/standin.out" 2>"$work/standin.log" &
    standin=$!
    for _ in $(seq 100); do grep -q '^PORT ' "$work/standin.out" 2>/dev/null && break; sleep 0.1; done
    apns_port=$(awk '/^PORT/ {print $2}' "$work/standin.out")
  fi
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

start_nginx_receiver() {
  command -v nginx >/dev/null && [ -f /usr/share/nginx/modules/ngx_http_echo_module.so ] && command -v h2load >/dev/null \
    || apt-get install -y -qq --no-install-recommends nginx libnginx-mod-http-echo nghttp2-client >/dev/null
  apns_port=$(free_port)
  h2load_port=$(free_port)
  cat "$work/ids/dev-ca/root.pem" "$work/ids/wwdr/dev-wwdr.pem" >"$work/client-ca.pem"
  mkdir -p "$work/nginx"
  cat >"$work/nginx.conf" <<NGINX
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
load_module /usr/share/nginx/modules/ngx_http_echo_module.so;
events { worker_connections 4096; }
http {
  access_log off;
  log_format apns escape=json '{"time":\$msec,"path":"\$uri","connection":\$connection,"status":\$status}';
  client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy; fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  http2_max_concurrent_streams 1000;
  ssl_certificate $work/standin.pem;
  ssl_certificate_key $work/standin-key.pem;
  server {
    listen 127.0.0.1:$apns_port ssl http2;
    ssl_client_certificate $work/client-ca.pem;
    ssl_verify_client on;
    ssl_verify_depth 3;
    location /3/device/ { access_log $work/requests.jsonl apns; echo_read_request_body; echo ""; }
  }
  server {
    listen 127.0.0.1:$h2load_port ssl http2;
    location /3/device/ { echo_read_request_body; echo ""; }
  }
}
NGINX
  nginx -c "$work/nginx.conf" -e "$work/nginx-error.log" &
  standin=$!
  for _ in $(seq 100); do curl -sk -o /dev/null "https://127.0.0.1:$h2load_port/" 2>/dev/null && break; sleep 0.1; done
}

# h2load_limit: requests/s h2load gets from the nginx receiver (1 connection, 100 streams, POST with a body).
h2load_limit() {
  printf '{"aps":{}}' >"$work/body.json"
  h2load -n 100000 -c 1 -m 100 -d "$work/body.json" -H 'apns-topic: bench' "https://127.0.0.1:$h2load_port/3/device/$(printf 'ab%.0s' $(seq 32))" 2>/dev/null \
    | awk '/^finished in/ {gsub(",", ""); print int($4)}'
}
