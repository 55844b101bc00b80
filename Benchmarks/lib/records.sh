# Sourced by the benchmarks that need records: make_csv COUNT FILE [PREFIX] writes COUNT rows cycling
# through the loyalty sample's rows (Templates/samples/loyalty.csv), serial numbers PREFIX0000000….
make_csv() {
  python3 - "$1" "$2" "${3:-B}" <<'PY'
import csv, sys
count, path, prefix = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rows = list(csv.reader(open("Templates/samples/loyalty.csv", newline="")))
header, body = rows[0], rows[1:]
serial = header.index("serialNumber")
with open(path, "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(header)
    for i in range(count):
        row = list(body[i % len(body)])
        row[serial] = "%s%07d" % (prefix, i)
        writer.writerow(row)
PY
}
