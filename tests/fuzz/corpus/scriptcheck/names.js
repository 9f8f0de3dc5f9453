pm.test('code is 0', () => {});
pm.test(`n ${i}`, () => {});
pm.environment.set("token", x); // pm.test('no')
pm.globals.set('a.b', 1);
