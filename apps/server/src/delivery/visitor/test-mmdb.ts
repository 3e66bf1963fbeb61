import ipaddr from 'ipaddr.js';

/**
 * A minimal MaxMind DB (.mmdb, format 2.0) writer for tests. MaxMind's public test databases
 * (GeoIP2-City-Test.mmdb, GeoIP2-Country-Test.mmdb of github.com/maxmind/MaxMind-DB) are in no npm package
 * we may use, so the tests build small databases of the same layout (IPv6 tree with IPv4 under ::/96,
 * 24-bit records, GeoIP2 record shapes) from a few networks taken from those test files.
 */

type Value = string | number | boolean | Value[] | { [key: string]: Value };

function controlBytes(type: number, size: number): Buffer {
  const head: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 29 + 256) {
    sizeBits = 29;
    extra.push(size - 29);
  } else if (size < 285 + 65536) {
    sizeBits = 30;
    const n = size - 285;
    extra.push(n >> 8, n & 0xff);
  } else {
    sizeBits = 31;
    const n = size - 65821;
    extra.push((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
  if (type <= 7) head.push((type << 5) | sizeBits);
  else head.push(sizeBits, type - 7); // extended type: 0 in the control byte, type - 7 in the next one
  return Buffer.from([...head, ...extra]);
}

function uintBytes(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes);
}

/** Encodes a value of the data section (strings, maps, arrays, booleans, unsigned ints, doubles). */
export function encode(value: Value, uintType: 'uint16' | 'uint32' | 'uint64' = 'uint32'): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([controlBytes(2, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') return controlBytes(14, value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0) {
      const bytes = uintBytes(value);
      const type = { uint16: 5, uint32: 6, uint64: 9 }[uintType];
      return Buffer.concat([controlBytes(type, bytes.length), bytes]);
    }
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([controlBytes(3, 8), bytes]);
  }
  if (Array.isArray(value)) {
    return Buffer.concat([controlBytes(11, value.length), ...value.map((v) => encode(v))]);
  }
  const entries = Object.entries(value);
  return Buffer.concat([
    controlBytes(7, entries.length),
    ...entries.flatMap(([k, v]) => [encode(k), encode(v)]),
  ]);
}

interface TreeNode {
  children: [TreeNode | number | null, TreeNode | number | null];
}

/** The 128 bits of an address in the IPv6 tree; IPv4 sits under ::/96 as MaxMind's IPv6 databases have it. */
function bitsOf(network: string): { bits: number[]; prefix: number } {
  const [address, length] = ipaddr.parseCIDR(network);
  const v4 = address.kind() === 'ipv4';
  const bytes = v4 ? [...new Array(12).fill(0), ...address.toByteArray()] : address.toByteArray();
  const bits = bytes.flatMap((b) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (b >> i) & 1));
  return { bits, prefix: v4 ? 96 + length : length };
}

/**
 * Builds a database: each network (CIDR, IPv4 or IPv6) points to its record. Networks must not nest.
 * @example buildMmdb('GeoIP2-Country', { '81.2.69.0/24': { country: { iso_code: 'GB' } } })
 */
export function buildMmdb(databaseType: string, networks: Record<string, Value>): Buffer {
  const root: TreeNode = { children: [null, null] };
  const data: Buffer[] = [];
  let dataSize = 0;
  for (const [network, record] of Object.entries(networks)) {
    const encoded = encode(record);
    const offset = dataSize;
    data.push(encoded);
    dataSize += encoded.length;
    const { bits, prefix } = bitsOf(network);
    let node = root;
    for (let depth = 0; depth < prefix - 1; depth++) {
      const bit = bits[depth] as 0 | 1;
      let next = node.children[bit];
      if (next === null) {
        next = { children: [null, null] };
        node.children[bit] = next;
      }
      if (typeof next === 'number') throw new Error(`${network} nests in another network`);
      node = next;
    }
    node.children[bits[prefix - 1] as 0 | 1] = -(offset + 1); // data offsets marked negative until numbering
  }
  // number the nodes breadth first
  const nodes: TreeNode[] = [];
  const ids = new Map<TreeNode, number>();
  const queue: TreeNode[] = [root];
  while (queue.length) {
    const node = queue.shift() as TreeNode;
    ids.set(node, nodes.length);
    nodes.push(node);
    for (const child of node.children) if (child !== null && typeof child === 'object') queue.push(child);
  }
  const nodeCount = nodes.length;
  const recordValue = (child: TreeNode | number | null): number => {
    if (child === null) return nodeCount;
    if (typeof child === 'number') return nodeCount + 16 + (-child - 1);
    return ids.get(child) as number;
  };
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((node, i) => {
    tree.writeUIntBE(recordValue(node.children[0]), i * 6, 3);
    tree.writeUIntBE(recordValue(node.children[1]), i * 6 + 3, 3);
  });
  const metadata = Buffer.concat([
    controlBytes(7, 9),
    encode('node_count'),
    encode(nodeCount, 'uint32'),
    encode('record_size'),
    encode(24, 'uint16'),
    encode('ip_version'),
    encode(6, 'uint16'),
    encode('database_type'),
    encode(databaseType),
    encode('languages'),
    encode(['en']),
    encode('binary_format_major_version'),
    encode(2, 'uint16'),
    encode('binary_format_minor_version'),
    encode(0, 'uint16'),
    encode('build_epoch'),
    encode(1_700_000_000, 'uint64'),
    encode('description'),
    encode({ en: `${databaseType} test database` }),
  ]);
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...data,
    Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex'),
    metadata,
  ]);
}

const country = (iso: string, geonameId: number) => ({
  country: { geoname_id: geonameId, iso_code: iso, names: { en: iso } },
  registered_country: { geoname_id: geonameId, iso_code: iso, names: { en: iso } },
});

/** Networks and records of MaxMind's GeoIP2-City-Test.mmdb (a few of them, same values). */
export function cityTestDatabase(): Buffer {
  return buildMmdb('GeoIP2-City', {
    '81.2.69.142/31': { ...country('GB', 2635167), city: { geoname_id: 2643743, names: { en: 'London' } } },
    '216.160.83.56/29': { ...country('US', 6252001), city: { geoname_id: 5803556, names: { en: 'Milton' } } },
    '89.160.20.112/28': {
      ...country('SE', 2661886),
      city: { geoname_id: 2694762, names: { en: 'Linköping' } },
    },
    '2a02:d280::/29': {
      ...country('CZ', 3077311),
      city: { geoname_id: 3067696, names: { en: 'Prague' } },
    },
    // a country without a city, as the City database has for some networks
    '2001:218::/32': country('JP', 1861060),
    // no country, only where the network is registered
    '2a02:cf40::/29': { registered_country: { geoname_id: 2921044, iso_code: 'DE' } },
  });
}

/** Networks and records of MaxMind's GeoIP2-Country-Test.mmdb (a few of them). */
export function countryTestDatabase(): Buffer {
  return buildMmdb('GeoIP2-Country', {
    '81.2.69.160/27': country('GB', 2635167),
    '216.160.83.56/29': country('US', 6252001),
    '2001:218::/32': country('JP', 1861060),
  });
}
