// The formulas of the widgets drawn from saved state (a reveal's steps): MathJax typeset
// the page before the widget manager drew them, so they are typeset once drawn.
window.addEventListener("load", function () {
  var tries = 0;
  var timer = setInterval(function () {
    tries += 1;
    var formulas = document.querySelectorAll(".jupyter-widgets .math");
    if (formulas.length || tries > 80) {
      clearInterval(timer);
      if (formulas.length && window.MathJax && window.MathJax.Hub) {
        formulas.forEach(function (el) {
          window.MathJax.Hub.Queue(["Typeset", window.MathJax.Hub, el]);
        });
      }
    }
  }, 250);
});
