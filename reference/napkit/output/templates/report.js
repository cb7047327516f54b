(function () {
  var ruleset = document.getElementById('f-ruleset'),
      outcome = document.getElementById('f-outcome'), rule = document.getElementById('f-rule'),
      shown = document.getElementById('f-shown');
  function apply() {
    var rs = ruleset.value, oc = outcome.value, text = rule.value.trim().toUpperCase();
    document.querySelectorAll('[data-col]').forEach(function (el) {
      el.classList.toggle('hidden', rs !== '' && el.getAttribute('data-col') !== rs);
    });
    document.querySelectorAll('tr[data-rule]').forEach(function (row) {
      var ok = text === '' || row.getAttribute('data-rule').toUpperCase().indexOf(text) >= 0;
      if (ok && oc !== '') {
        ok = false;
        row.querySelectorAll('td[data-col]').forEach(function (cell) {
          if ((rs === '' || cell.getAttribute('data-col') === rs) &&
              (' ' + cell.getAttribute('data-has') + ' ').indexOf(' ' + oc + ' ') >= 0) ok = true;
        });
      }
      row.classList.toggle('hidden', !ok);
    });
    var n = 0;
    document.querySelectorAll('.failure').forEach(function (item) {
      var ok = (rs === '' || item.getAttribute('data-ruleset') === rs) &&
               (oc === '' || item.getAttribute('data-outcome') === oc) &&
               (text === '' || item.getAttribute('data-rules').toUpperCase().indexOf(text) >= 0);
      item.classList.toggle('hidden', !ok);
      if (ok) n += 1;
    });
    if (shown) shown.textContent = n;
  }
  function save() {
    var parts = [];
    if (ruleset.value) parts.push('ruleset=' + encodeURIComponent(ruleset.value));
    if (outcome.value) parts.push('outcome=' + encodeURIComponent(outcome.value));
    if (rule.value) parts.push('rule=' + encodeURIComponent(rule.value));
    history.replaceState(null, '', location.pathname + (parts.length ? '#' + parts.join('&')
                                                                      : ''));
    apply();
  }
  (location.search.replace(/^[?]/, '') + '&' + location.hash.replace(/^#/, '')).split('&')
      .forEach(function (part) {
    var kv = part.split('='), value = decodeURIComponent(kv[1] || '');
    if (kv[0] === 'ruleset') ruleset.value = value;
    if (kv[0] === 'outcome') outcome.value = value;
    if (kv[0] === 'rule') rule.value = value;
  });
  [ruleset, outcome].forEach(function (el) { el.addEventListener('change', save); });
  rule.addEventListener('input', save);
  apply();
})();
