/** Numbers each name once, in the order first met: columns then hold numbers, not strings. */
export class NameTable {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();

  /** The name's number, given now if it has none yet. */
  of(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      this.index.set(name, (i = this.list.length));
      this.list.push(name);
    }
    return i;
  }

  /** The name's number, or −1 when it has none. */
  find(name: string): number {
    return this.index.get(name) ?? -1;
  }
}
