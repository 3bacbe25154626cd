// Unit tests: URL and body template substitution (REFERENCE §8.2) and Go-style JSON.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { goJson } from '../../engine/custom/go-json.js';
import { parseBodyTemplate, pathEscape, queryEscape, renderBody, substituteUrl, templateVariables, urlVariables } from '../../engine/custom/template.js';
import { isPrivateAddress } from '../../engine/custom/address-guard.js';

describe('substituteUrl', () => {
  const url = 'http://api.com/favMovies/$id?name=$name&num=$num';
  it('fills path segments and query values, keys sorted', () => {
    expect(substituteUrl(url, { id: '0x123', name: 'Author', num: 10 })).toBe('http://api.com/favMovies/0x123?name=Author&num=10');
    expect(substituteUrl('http://a/x?z=$z&a=$a', { z: 1, a: 2 })).toBe('http://a/x?a=2&z=1');
  });
  it('removes a parameter whose argument is absent; null gives an empty value', () => {
    expect(substituteUrl(url, { id: '0x1', name: 'Michael' })).toBe('http://api.com/favMovies/0x1?name=Michael');
    expect(substituteUrl(url, { id: '0x1', name: 'Michael', num: null })).toBe('http://api.com/favMovies/0x1?name=Michael&num=');
  });
  it('path-escapes values, joins lists with commas, flattens objects with sorted keys', () => {
    expect(substituteUrl('http://a/$p', { p: 'a b/c?d' })).toBe('http://a/a%20b%2Fc%3Fd');
    expect(substituteUrl('http://a/$p/x', { p: ['x', 'y'] })).toBe('http://a/x,y/x');
    expect(substituteUrl('http://a/$p', { p: { b: 2, a: 1 } })).toBe('http://a/a,1,b,2');
  });
  it('repeats keys for lists and uses k[sub]=v for objects in the query', () => {
    expect(substituteUrl('http://a/?ids=$ids', { ids: [1, 2] })).toBe('http://a/?ids=1&ids=2');
    expect(substituteUrl('http://a/?f=$f', { f: { y: 'b c', x: 1 } })).toBe('http://a/?f%5Bx%5D=1&f%5By%5D=b+c');
  });
  it('escapes like Go', () => {
    expect(pathEscape("a$&+:=@!'()*;,")).toBe("a$&+:=@%21%27%28%29%2A%3B%2C");
    expect(queryEscape('a b&c')).toBe('a+b%26c');
  });
  it('lists the variables it uses', () => {
    expect([...urlVariables(url)]).toEqual(['id', 'name', 'num']);
  });
});

describe('body templates', () => {
  const template = parseBodyTemplate('{ id: $id, name: $name, director: { number: $num } }')!;
  it('fills placeholders, nested objects, keys sorted', () => {
    expect(goJson(renderBody(template, { id: '0x9', name: 'Michael', num: 10 }))).toBe('{"director":{"number":10},"id":"0x9","name":"Michael"}');
  });
  it('omits keys of absent variables and keeps explicit nulls', () => {
    expect(goJson(renderBody(template, { id: '0x9', name: null }))).toBe('{"director":{},"id":"0x9","name":null}');
  });
  it('names its variables', () => {
    expect([...templateVariables(template)].sort()).toEqual(['id', 'name', 'num']);
  });
  it('goJson escapes HTML characters like encoding/json', () => {
    expect(goJson({ b: '<&>', a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":"\\u003c\\u0026\\u003e"}');
  });
  it('goJson is JSON with sorted keys (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = goJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('address guard', () => {
  it('flags private, loopback, link-local and mapped addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.1.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '2001:4860::8888']) expect(isPrivateAddress(a), a).toBe(false);
  });
});
