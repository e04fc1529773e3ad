; grid-visit-all: a robot walks a grid of places and must have visited every one of them.
(define (domain grid-visit-all)
    (:requirements :typing)
    (:types place - object)
    (:predicates (at-robot ?x - place) (connected ?x - place ?y - place) (visited ?x - place))
    (:action move
        :parameters (?curpos - place ?nextpos - place)
        :precondition (and (at-robot ?curpos) (connected ?curpos ?nextpos))
        :effect (and (at-robot ?nextpos) (not (at-robot ?curpos)) (visited ?nextpos)))
)
