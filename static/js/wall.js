// The wall screen shows its slides (.wall-slide: the clock, each page of the seating, the standings) one
// at a time, each for data-rotate-seconds. The seating and standings are swapped in afresh by htmx polls,
// so the slides are looked up again at every turn and after every swap: a seating that grows a page, or
// a round with no seating yet, simply changes how many slides there are. Without JavaScript every slide
// is shown, one under the other.
(function () {
  "use strict";
  var wall = document.getElementById("wall");
  if (!wall) {
    return;
  }
  var seconds = parseInt(wall.dataset.rotateSeconds, 10) || 15;
  var index = 0;

  function show() {
    var slides = wall.querySelectorAll(".wall-slide");
    if (!slides.length) {
      return;
    }
    index = index % slides.length;
    slides.forEach(function (slide, i) {
      slide.classList.toggle("is-current", i === index);
    });
  }

  document.body.classList.add("js-rotating");
  show();
  window.setInterval(function () {
    index += 1;
    show();
  }, seconds * 1000);
  // A poll replaced some slides: keep showing the slide at the same place.
  document.body.addEventListener("htmx:afterSwap", show);
})();
