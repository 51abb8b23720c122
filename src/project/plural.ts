/**
 * The CRD plural of a kind, as controller-gen computes it: flect's Pluralize of the kind as
 * written, then lower-cased (`ExternalDNS` → `externaldnses`, `RDS` → `rdses`, `Policy` →
 * `policies`), quirks included. (kubebuilder's PROJECT file lower-cases first, which differs for
 * kinds ending in an upper-case S; the CRD is what the API server serves, so tsop uses its rule
 * everywhere.) The word table and suffix rules are the data flect v1 ships; the algorithm below
 * is written from its behaviour:
 *   1. a dictionary word maps to its plural; a word already plural stays;
 *   2. otherwise the first suffix rule that matches the word's last part wins, where every rule
 *      also has a "no-op" twin for its plural suffix (so `cookies` stays `cookies`);
 *   3. otherwise words ending in `s` stay, everything else gets `s`.
 * Used by `tsop manifests` and by `tsop create api` (default `--plural`); test/fixtures/plurals.tsv
 * is the truth table taken from controller-gen itself.
 */

/** `singular:plural[:alternative]`; `!` = exact word only (no suffix rule), `>` = one-way. */
const DICTIONARY = `
aircraft:aircraft beef:beef:beefs bison:bison >blues:blues chassis:chassis deer:deer 
fish:fish:fishes moose:moose police:police salmon:salmon:salmons series:series sheep:sheep 
shrimp:shrimp:shrimps species:species swine:swine:swines trout:trout:trouts tuna:tuna:tunas you:you 
child:children !ox:oxen foot:feet goose:geese man:men human:humans !louse:lice mouse:mice 
tooth:teeth woman:women !die:dice person:people adieu:adieux:adieus fabliau:fabliaux 
bureau:bureaus:bureaux criterion:criteria ganglion:ganglia:ganglions lexicon:lexica:lexicons 
mitochondrion:mitochondria:mitochondrions noumenon:noumena phenomenon:phenomena taxon:taxa 
media:media >medium:media:mediums stadium:stadiums:stadia aquarium:aquaria:aquariums 
auditorium:auditoria:auditoriums symposium:symposia:symposiums curriculum:curriculums:curricula 
quota:quotas alumnus:alumni:alumnuses bacillus:bacilli cactus:cacti:cactuses coccus:cocci 
focus:foci:focuses locus:loci:locuses nucleus:nuclei:nucleuses octopus:octupuses:octopi 
radius:radii:radiuses syllabus:syllabi corpus:corpora:corpuses genus:genera alumna:alumnae 
vertebra:vertebrae differentia:differentiae minutia:minutiae vita:vitae larva:larvae 
postcava:postcavae praecava:praecavae uva:uvae apex:apices:apexes codex:codices:codexes 
index:indices:indexes latex:latices:latexes vertex:vertices:vertexes vortex:vortices:vortexes 
appendix:appendices:appendixes radix:radices:radixes helix:helices:helixes !axis:axes crisis:crises 
>ellipsis:ellipses genesis:geneses oasis:oases thesis:theses testis:testes base:bases >basis:bases 
!alias:aliases vedalia:vedalias !use:uses abuse:abuses cause:causes clause:clauses cruse:cruses 
excuse:excuses fuse:fuses house:houses misuse:misuses muse:muses pause:pauses ache:aches 
topaz:topazes buffalo:buffaloes:buffalos potato:potatoes tomato:tomatoes equipment:equipment 
information:information jeans:jeans money:money news:news rice:rice dwarf:dwarfs:dwarves 
hoof:hoofs:hooves thief:thieves chive:chives hive:hives move:moves movie:movies cookie:cookies 
pretorium:pretoriums agenda:agendas formula:formulas:formulae shoe:shoes !toe:toes 
graffiti:graffiti !ID:IDs `;

/** Suffix rules `singular:plural`, highest priority first. */
const SUFFIXES = `
tive:tives eaf:eaves oaf:oaves afe:aves arf:arves rfe:rves rf:rves lf:lves fe:ves ay:ays ey:eys 
oy:oys quy:quies uy:uys y:ies eau:eaux bula:bulae dula:bulae lula:bulae nula:bulae vula:bulae 
hedron:hedra ium:ia seum:seums eum:ea oum:oa stracum:straca dum:da elum:ela ilum:ila olum:ola 
ulum:ula llum:lla ylum:yla imum:ima ernum:erna gnum:gna brum:bra crum:cra terum:tera serum:sera 
trum:tra antum:anta atum:ata entum:enta etum:eta itum:ita otum:ota utum:uta ctum:cta ovum:ova 
trix:trices iasis:iases mesis:meses kinesis:kineses resis:reses gnosis:gnoses opsis:opses ysis:yses 
ouse:ouses lause:lauses us:uses ch:ches io:ios sh:shes ss:sses ez:ezzes iz:izzes tz:tzes zz:zzes 
ano:anos lo:los to:tos oo:oos o:oes x:xes S:Ses `;

/** Acronyms flect treats as one upper-case word (affects which suffix rules can match). */
const ACRONYMS = new Set(
  (
    'OK UTF8 HTML JSON JWT ID UUID SQL ACK ACL ADSL AES ANSI API ARP ATM BGP BSS CCITT CHAP CIDR CIR CLI CPE CPU CRC ' +
    'CRT CSMA CMOS DCE DEC DES DHCP DNS DRAM DSL DSLAM DTE DMI EHA EIA EIGRP EOF ESS FCC FCS FDDI FTP GBIC GEPOF HDLC ' +
    'HTTP HTTPS IANA ICMP IDF IDS IEEE IETF IMAP IP IPS ISDN ISP LACP LAN LAPB LAPF LLC MAC MC MDF MIB MPLS MTU NAC NAT ' +
    'NBMA NIC NRZ NRZI NVRAM OSI OSPF OUI PAP PAT PC PIM PCM PDU POP3 POTS PPP PPTP PTT PVST RAM RARP RFC RIP RLL ROM ' +
    'RSTP RTP RCP SDLC SFD SFP SLARP SLIP SMTP SNA SNAP SNMP SOF SRAM SSH SSID STP SYN TDM TFTP TIA TOFU UDP URL URI ' +
    'USB UTP VC VLAN VLSM VPN W3C WAN WEP WPA WWW'
  ).split(' '),
);

/** A suffix rule: `suffix` becomes `plural`, or stays when `plural` is undefined (a no-op twin). */
interface Rule {
  suffix: string;
  plural?: string;
}

interface Tables {
  singleToPlural: Map<string, string>;
  pluralToSingle: Set<string>;
  rules: Rule[];
  /** Suffix → the index of the first rule with it: the first matching rule is found by lookups, not a scan of ~500. */
  firstRule: Map<string, number>;
  longestSuffix: number;
}

let tables: Tables | undefined;

function build(): Tables {
  const singleToPlural = new Map<string, string>();
  const pluralToSingle = new Set<string>();
  const entries = DICTIONARY.trim()
    .split(/\s+/)
    .map((raw) => {
      const flag = raw[0] === '!' || raw[0] === '>' ? raw[0] : '';
      const [singular = '', plural = '', alternative] = raw.slice(flag.length).split(':');
      return { singular, plural, alternative, exact: flag === '!', oneWay: flag === '>' };
    });
  for (const e of entries) {
    singleToPlural.set(e.singular, e.plural);
    if (!e.oneWay) {
      pluralToSingle.add(e.plural);
      if (e.alternative !== undefined) pluralToSingle.add(e.alternative);
    }
  }
  // Each rule is preceded by a no-op for its plural form. Dictionary words come first, the last
  // word first, because flect prepends them after the suffix list.
  const pairs: Array<[string, string]> = [
    ...entries
      .filter((e) => !e.exact)
      .reverse()
      .map((e): [string, string] => [e.singular, e.plural]),
    ...SUFFIXES.trim()
      .split(/\s+/)
      .map((p): [string, string] => {
        const [s = '', r = ''] = p.split(':');
        return [s, r];
      }),
  ];
  const rules: Rule[] = [];
  for (const [singular, plural] of pairs) {
    rules.push({ suffix: plural });
    rules.push({ suffix: singular, plural });
  }
  const firstRule = new Map<string, number>();
  let longestSuffix = 0;
  rules.forEach((r, i) => {
    if (!firstRule.has(r.suffix)) firstRule.set(r.suffix, i);
    longestSuffix = Math.max(longestSuffix, r.suffix.length);
  });
  return { singleToPlural, pluralToSingle, rules, firstRule, longestSuffix };
}

/**
 * The last "part" of a word as flect splits it: a new part starts at an upper-case letter that
 * follows a non-upper-case one, or that follows a part which is a known acronym (`DNSPolicy` →
 * `DNS`, `Policy`); a part that is an acronym in any case is upper-cased (`Dns` → `DNS`).
 */
function lastPart(word: string): string {
  const trimmed = word.trim();
  if (ACRONYMS.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  const parts: string[] = [];
  const push = (p: string): void => {
    const t = p.trim().replace(/^[_ :\-/]+|[_ :\-/]+$/g, '');
    if (t !== '') parts.push(ACRONYMS.has(t.toUpperCase()) ? t.toUpperCase() : t);
  };
  let current = '';
  let prev = '';
  for (const c of trimmed) {
    const upper = isUpper(c);
    // ASCII letters and digits (all of most kinds) skip both character-class tests.
    const code = c.charCodeAt(0);
    const alnum =
      c.length === 1 && ((code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a));
    if (
      (!alnum && /[\s_:\-/]/.test(c)) ||
      (upper && !isUpper(prev)) ||
      (upper && ACRONYMS.has(current.toUpperCase()))
    ) {
      push(current);
      current = c;
    } else if (alnum || /[\p{L}\p{N}\p{P}`]/u.test(c)) {
      current += c;
    } else {
      push(current);
      current = '';
    }
    prev = c;
  }
  push(current);
  return parts[parts.length - 1] ?? '';
}

const isUpper = (c: string): boolean => c !== '' && c === c.toUpperCase() && c !== c.toLowerCase();

/** flect.Pluralize. */
export function pluralize(word: string): string {
  const t = (tables ??= build());
  const last = lastPart(word);
  if (last === '') return '';
  const replaceSuffix = (orig: string, repl: string): string =>
    (word.endsWith(orig) ? word.slice(0, word.length - orig.length) : word) + repl;
  const exact = t.singleToPlural.get(word);
  if (exact !== undefined) return replaceSuffix(word, exact);
  if (t.pluralToSingle.has(word)) return word;
  const lower = last.toLowerCase();
  if (t.pluralToSingle.has(lower)) return word;
  const known = t.singleToPlural.get(lower);
  if (known !== undefined) {
    const capitalised = last[0] !== undefined && last[0] === last[0].toUpperCase() && last[0] !== last[0].toLowerCase();
    return replaceSuffix(last, capitalised ? known[0]!.toUpperCase() + known.slice(1) : known);
  }
  let first = -1;
  for (let n = Math.min(last.length, t.longestSuffix); n > 0; n--) {
    const i = t.firstRule.get(last.slice(last.length - n));
    if (i !== undefined && (first < 0 || i < first)) first = i;
  }
  const rule = t.rules[first];
  if (rule !== undefined) {
    const replaced = rule.plural === undefined ? last : last.slice(0, last.length - rule.suffix.length) + rule.plural;
    return replaceSuffix(last, replaced);
  }
  if (lower.endsWith('s')) return word;
  return `${word}s`;
}

/** The CRD plural controller-gen derives from a kind: `strings.ToLower(flect.Pluralize(kind))`. */
export function pluralOfKind(kind: string): string {
  return pluralize(kind).toLowerCase();
}
