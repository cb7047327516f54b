(function () {
  var rule = document.getElementById('c-rule'), differ = document.getElementById('c-differ');
  function apply() {
    var text = rule.value.trim().toUpperCase();
    document.querySelectorAll('tr[data-rule]').forEach(function (row) {
      var ok = text === '' || row.getAttribute('data-rule').toUpperCase().indexOf(text) >= 0;
      if (differ.checked && row.getAttribute('data-same') === 'yes') ok = false;
      row.classList.toggle('hidden', !ok);
    });
  }
  rule.addEventListener('input', apply);
  differ.addEventListener('change', apply);
  apply();
})();
