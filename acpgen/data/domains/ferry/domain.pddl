; ferry: a single ferry carries one car at a time between locations.
(define (domain ferry)
    (:requirements :strips :typing)
    (:types car location - object)
    (:predicates (at ?c - car ?l - location) (at-ferry ?l - location) (empty-ferry) (not-eq ?x ?y) (on ?c - car))
    (:action sail
        :parameters (?from - location ?to - location)
        :precondition (and (not-eq ?from ?to) (at-ferry ?from))
        :effect (and (at-ferry ?to) (not (at-ferry ?from))))
    (:action board
        :parameters (?car - car ?loc - location)
        :precondition (and (at ?car ?loc) (at-ferry ?loc) (empty-ferry))
        :effect (and (on ?car) (not (at ?car ?loc)) (not (empty-ferry))))
    (:action debark
        :parameters (?car - car ?loc - location)
        :precondition (and (on ?car) (at-ferry ?loc))
        :effect (and (at ?car ?loc) (empty-ferry) (not (on ?car))))
)
